/**
 * Whether this page's `fetch` calls reach msw's service worker once msw says mocking is on.
 * Chromium can leave a page without its worker (the renderer hosting the worker crashed while the
 * page loaded): the page is still controlled and msw's worker answers its messages, but every
 * request goes to the network until the page is reloaded, so the fake would answer nothing.
 *
 * So on msw's `MOCKING_ENABLED` message (which `worker.start()` and msw/vite's `network.enable()`
 * wait for), the page fetches a probe only the fake's probe handler answers. A probe another
 * server answered with no service worker in its timing (`workerStart` 0), twice, is a page
 * without its worker: said on the console, and the page is reloaded once (a page reloaded for it
 * a moment ago is told to reload instead). A probe that fails or is slow proves nothing (a busy
 * page, a worker restarting), and the page is left as it is.
 */
import { http, type RequestHandler } from 'msw';

/** The path of the probe, under the page's own origin (answered by the handler, never sent). */
const probePath = '__petstore-fake-worker-check';
/** The header the probe handler answers with: the page's token, so no other answer passes. */
const probeHeader = 'x-petstore-fake-worker-check';
/** How long a probe may take; one that takes longer tells nothing (a busy page, not a bypass). */
const probeTimeoutMs = 10_000;
/** How long after the first probe the second tells a worker restarting from a page without one. */
const secondProbeAfterMs = 500;
/** Where the time of the last reload for a missing worker is kept, so one page reloads once. */
const reloadedKey = 'petstore-fake:reloaded-for-worker';
/** A page reloaded for its worker this recently is not reloaded again. */
const reloadGuardMs = 30_000;

/** What the check needs from the page: its fetch, its timing entries and a reload. */
export interface WorkerCheckPage {
  readonly fetch: typeof fetch;
  /** The resource timing of a fetched URL, once the browser has it (empty if it keeps none). */
  readonly timing: (url: string) => Promise<readonly PerformanceEntry[]>;
  readonly reload: () => void;
  /** The page's session storage, where the reload guard is kept; `undefined` without one. */
  readonly session: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  readonly now: () => number;
  readonly warn: (message: string) => void;
}

/**
 * Whether a probe surely went to the network: another server answered, and no worker is in its
 * timing. One the probe handler answered, that a worker passed on, that failed or took too long,
 * or that the browser kept no timing of did not.
 */
async function wentToNetwork(page: WorkerCheckPage, url: string, token: string): Promise<boolean> {
  try {
    const response = await page.fetch(url, {
      cache: 'no-store',
      signal: AbortSignal.timeout(probeTimeoutMs),
    });
    if (response.headers.get(probeHeader) === token) return false;
    // The browser times a fetch once its body has come.
    await response.arrayBuffer();
  } catch {
    // A failed or slow probe proves nothing by itself: a worker restarting fails one too.
    return false;
  }
  const timings = (await page.timing(url)) as readonly Partial<PerformanceResourceTiming>[];
  return timings.length > 0 && !timings.some((entry) => (entry.workerStart ?? 0) > 0);
}

/**
 * The probe of a page whose URL is `pageUrl`: its msw `handler`, which goes first among the
 * fake's handlers, and `run`, which probes (twice if need be) and resolves `false` when both
 * probes went to the network, after saying so and reloading the page once; `true` otherwise (the
 * worker answered, or the probe told nothing).
 */
export function createWorkerCheck(pageUrl: string, page: WorkerCheckPage) {
  const token = crypto.randomUUID();
  const base = new URL(probePath, pageUrl).href;
  let probes = 0;
  const probe = () => wentToNetwork(page, `${base}?${token}-${++probes}`, token);
  return {
    handler: http.get(
      ({ request }) => request.url.startsWith(`${base}?`),
      () => new Response(null, { status: 204, headers: { [probeHeader]: token } }),
    ),
    async run(): Promise<boolean> {
      // Only an answer from the network, twice, is a page without its worker.
      if (!(await probe())) return true;
      await new Promise((resolve) => setTimeout(resolve, secondProbeAfterMs));
      if (!(await probe())) return true;
      const { session } = page;
      const recently =
        session === undefined || page.now() - Number(session.getItem(reloadedKey)) < reloadGuardMs;
      page.warn(
        `petstore-fake: this page's requests do not reach msw's service worker, although it controls the page: the browser left the page without it (as Chromium does when the renderer that runs the worker crashes while the page loads), so the fake answers nothing here. ${recently ? 'It was reloaded for this a moment ago: reload it again.' : 'Reloading the page, which gives it the worker back.'}`,
      );
      if (recently) return false;
      session?.setItem(reloadedKey, String(page.now()));
      page.reload();
      return false;
    },
  };
}

/** How long the browser may take to add a fetch's timing entry after its body has come. */
const timingWaitMs = 1_000;

/** The resource timing of `url`, buffered or as added (an observer sees it past a full buffer). */
function resourceTiming(url: string): Promise<readonly PerformanceEntry[]> {
  return new Promise((resolve) => {
    const done = (entries: readonly PerformanceEntry[]) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(entries);
    };
    const observer = new PerformanceObserver((list) => {
      const entries = list.getEntriesByName(url);
      if (entries.length > 0) done(entries);
    });
    const timer = setTimeout(() => done([]), timingWaitMs);
    observer.observe({ type: 'resource', buffered: true });
  });
}

/** The page's own check, run each time msw's worker says mocking is enabled for this page. */
export function watchWorker(warn: (message: string) => void): RequestHandler | undefined {
  if (typeof navigator === 'undefined' || navigator.serviceWorker === undefined) return undefined;
  let session: Storage | undefined;
  try {
    session = sessionStorage;
  } catch {
    // A page without session storage cannot keep the guard: it is told, never reloaded.
  }
  const check = createWorkerCheck(location.href, {
    fetch: (input, init) => fetch(input, init),
    timing: resourceTiming,
    reload: () => location.reload(),
    session,
    now: () => Date.now(),
    warn,
  });
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === 'MOCKING_ENABLED') void check.run();
  });
  return check.handler;
}
