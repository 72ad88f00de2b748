/*
 * petstore-fake's service worker: msw's own worker (mockServiceWorker.js, kept in step with msw by
 * `msw.workerDirectory`) with the page's own loads left to the network.
 *
 * - Chromium dispatches a page's loads (a navigation, its scripts) to the service worker, which
 *   runs inside the renderer of one of the origin's tabs. When that renderer crashes while a load
 *   is dispatched to it, a navigation never ends (a reload that never completes) and a script
 *   fails (net::ERR_FAILED: the page loads, its app never starts).
 * - msw's worker hands a navigation (a page load or reload, whose fetch has no client of its own)
 *   to a visible tab it knows (resolveMainClient) and waits for that tab's answer with no time
 *   limit (getResponse -> sendToClient): when that tab is closing, reloading or crashed, the page
 *   load never ends.
 *
 * The fake answers only `fetch` and XHR calls to its API (a request's `destination` is empty for
 * those). So this worker asks the browser, as it installs, to send every other request
 * (documents, scripts, styles, images, workers) to the network without dispatching it to any
 * service worker (the static routing API, InstallEvent.addRoutes): a crash elsewhere cannot
 * catch a page load in flight. Where the browser has no static routing, the listener below,
 * added before msw's, stops msw's for those requests, and the browser loads them from the network
 * as usual (the navigation hang of a crashed renderer then remains).
 */
self.addEventListener('install', (event) => {
  if (!event.addRoutes) return;
  // Documents, scripts, styles, images: straight to the network, never to a service worker.
  const route = { condition: { not: { requestDestination: '' } }, source: 'network' };
  // A browser that knows routes but not this condition refuses it: the fetch listener below
  // still keeps those loads away from msw.
  event.waitUntil(
    event.addRoutes(route).catch((error) => console.warn(`fake-worker.js: ${error}`)),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.destination !== '') event.stopImmediatePropagation();
});

importScripts('./mockServiceWorker.js');
