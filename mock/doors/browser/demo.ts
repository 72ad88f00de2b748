/**
 * The demo page's script: starts the fake's worker, then calls the Pet Store with plain `fetch`
 * and prints each exchange. Bundled by scripts/build-browser.ts; the browser test drives it.
 */
import { type BrowserFake, showPanel, startFakeWorker } from './browser.ts';

declare global {
  interface Window {
    /** The page's fake (shared by the origin's tabs), for the console and for tests: `await fake.control.describe()`. */
    fake?: BrowserFake;
  }
}

const baseUrl = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer free-demo-key' };
const shownHeaders = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
];

let lastPetId: number | undefined;

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`petstore-fake demo: index.html lacks #${id}`);
  return found;
}

/** Calls the API and appends the exchange to the log, newest first. */
async function call(method: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, { method, ...init });
  const body: unknown = await response.json();
  const headers = shownHeaders
    .filter((name) => response.headers.has(name))
    .map((name) => `${name}: ${response.headers.get(name)}`);
  const entry = document.createElement('section');
  entry.dataset.status = String(response.status);
  const title = document.createElement('h3');
  title.textContent = `${method} ${path} → ${response.status}`;
  const text = document.createElement('pre');
  text.textContent = [...headers, '', JSON.stringify(body, null, 2)].join('\n');
  entry.append(title, text);
  element('log').prepend(entry);
  return body;
}

const actions: Record<string, (fake: BrowserFake) => Promise<unknown>> = {
  list: () => call('GET', '/pets?limit=5', { headers: auth }),
  async create() {
    const body = await call('POST', '/pets', {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'number')
      lastPetId = body.id;
  },
  get: () => call('GET', `/pets/${lastPetId ?? 1}`, { headers: auth }),
  'no-key': () => call('GET', '/pets'),
  async 'rate-limit'(fake) {
    await fake.control.force('listPets', 429, 1, 30);
    return call('GET', '/pets', { headers: auth });
  },
  async reset(fake) {
    await fake.control.reset();
    lastPetId = undefined;
    element('log').replaceChildren();
  },
};

/** Says where the fake runs and keeps its state: shared by the origin's tabs unless `?shared=false`. */
function showWhere(fake: BrowserFake): void {
  const { shared, runsHere, storage } = fake.status();
  const where = runsHere ? 'this tab runs it' : 'another tab runs it';
  const kept =
    storage === undefined
      ? ''
      : storage.kept === 'indexeddb'
        ? '; kept in IndexedDB across reloads'
        : `; kept in memory only${storage.problem === undefined ? '' : ` (${storage.problem})`}`;
  element('shared').textContent =
    shared === false
      ? 'This page has a fake of its own (?shared=false): a reload starts from the seed.'
      : `One fake for every tab of this origin: ${where}${kept}. "Reset the fake" (or await fake.control.reset() in the console) resets it for every tab.`;
  element('shared').dataset.runsHere = String(runsHere);
}

// ?shared=false: a fake of this page's own; ?quiet: msw logs no request to the console;
// ?panel: the in-page panel (show-panel.ts), as an app's `showPanel(fake)` adds it.
const query = new URLSearchParams(location.search);
const { fake } = await startFakeWorker({
  // msw's worker behind one that leaves page loads to the network (public/fake-worker.js).
  serviceWorkerUrl: './fake-worker.js',
  shared: query.get('shared') !== 'false',
  quiet: query.has('quiet'),
});
window.fake = fake;
if (query.has('panel')) showPanel(fake);
showWhere(fake);
element('actions').addEventListener('click', (event) => {
  const action = (event.target as HTMLElement).dataset.action;
  const run = action === undefined ? undefined : actions[action];
  if (run === undefined) return;
  run(fake)
    .then(() => showWhere(fake))
    .catch((error: unknown) => {
      // Surface failures on the page, not only in the console.
      element('status').textContent = `Failed: ${String(error)}`;
    });
});
element('status').textContent = 'Worker started: the buttons call the fake through fetch.';
element('status').dataset.ready = 'true';
element('actions').hidden = false;
