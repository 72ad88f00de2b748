/*
 * petstore-fake's service worker: msw's own worker (mockServiceWorker.js, kept in step with msw by
 * `msw.workerDirectory`) with page loads left to the network.
 *
 * msw's worker hands a navigation (a page load or reload, whose fetch has no client of its own) to
 * a visible tab it knows (resolveMainClient) and waits for that tab's answer with no time limit
 * (getResponse -> sendToClient). When that tab is closing, reloading or crashed, the page load
 * never ends. The fake answers no page of the app (its origins are the API's), so this listener,
 * added before msw's, lets navigations go to the network and stops msw's listener for them.
 */
self.addEventListener('fetch', (event) => {
  if (event.request.mode === 'navigate') event.stopImmediatePropagation();
});

importScripts('./mockServiceWorker.js');
