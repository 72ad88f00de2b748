/**
 * The browser door: the fake's handlers under msw's `setupWorker`, so a page's `fetch` calls to
 * the fake's origins are answered by a Service Worker, with no server running. Nothing here (or
 * below it) may import `node:*`; the bundle test builds it with `platform: 'browser'` to prove it.
 * @example
 * const { worker, fake } = await startFakeWorker({ quiet: true });
 * const res = await fetch('http://127.0.0.1:4010/v1/pets', {
 *   headers: { Authorization: 'Bearer free-demo-key' },
 * });
 */
import type { UnhandledFrameHandle } from 'msw';
import { type SetupWorker, setupWorker } from 'msw/browser';
import { type CreateFakeOptions, createFake, type Fake } from '../../fake.ts';

/** Options of `startFakeWorker`: the fake's own options plus how the worker is started. */
export interface StartFakeWorkerOptions extends CreateFakeOptions {
  /** Where the page serves `mockServiceWorker.js` (copy it with `npx msw init <dir>`). Default `/mockServiceWorker.js`. */
  readonly serviceWorkerUrl?: string;
  /** Keeps msw from logging every intercepted request to the console. Default `false`. */
  readonly quiet?: boolean;
  /**
   * What happens to requests no handler matches. Default `bypass`, so the app's own assets,
   * its dev server and other APIs go to the network untouched.
   */
  readonly onUnhandledFrame?: UnhandledFrameHandle;
}

/** A fake and the started msw worker that answers for it. */
export interface FakeWorker {
  readonly worker: SetupWorker;
  readonly fake: Fake;
}

/**
 * Creates a fake and starts an msw worker over its handlers; resolves once the worker intercepts.
 * @example
 * const { fake } = await startFakeWorker({ serviceWorkerUrl: '/mockServiceWorker.js' });
 * fake.control.force('listPets', 429, 1); // the next listPets answers 429
 */
export async function startFakeWorker(options: StartFakeWorkerOptions = {}): Promise<FakeWorker> {
  const { serviceWorkerUrl, quiet, onUnhandledFrame, ...fakeOptions } = options;
  const fake = await createFake(fakeOptions);
  const worker = setupWorker(...fake.handlers);
  await worker.start({
    serviceWorker: { url: serviceWorkerUrl ?? '/mockServiceWorker.js' },
    onUnhandledFrame: onUnhandledFrame ?? 'bypass',
    quiet: quiet ?? false,
  });
  return { worker, fake };
}

export * from '../../fake.ts';
