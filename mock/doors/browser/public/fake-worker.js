/*
 * petstore-fake's service worker: msw's own worker (mockServiceWorker.js, kept in step with msw by
 * `msw.workerDirectory`) with the page's own loads left to the network.
 *
 * - msw's worker hands a navigation (a page load or reload, whose fetch has no client of its own)
 *   to a visible tab it knows (resolveMainClient) and waits for that tab's answer with no time
 *   limit (getResponse -> sendToClient): when that tab is closing, reloading or crashed, the page
 *   load never ends.
 * - msw's worker fetches what it passes through itself, so a script or style a page is loading
 *   fails (net::ERR_FAILED) when the renderer hosting the worker crashes meanwhile, and the page
 *   never starts.
 *
 * The fake answers only `fetch` and XHR calls to its API (a request's `destination` is empty for
 * those), so this listener, added before msw's, stops msw's for every other request (documents,
 * scripts, styles, images, workers), and the browser loads it from the network as usual.
 */
self.addEventListener('fetch', (event) => {
  if (event.request.destination !== '') event.stopImmediatePropagation();
});

importScripts('./mockServiceWorker.js');
