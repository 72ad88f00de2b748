/**
 * The browser door: a page's fake (browser-fake.ts: by default one fake shared by every tab of the
 * origin, kept across reloads) under msw's `setupWorker`, so the page's `fetch` calls to the
 * fake's origins are answered by a Service Worker, with no server running. Nothing here (or below
 * it) may import `node:*`; the bundle test builds it with `platform: 'browser'` to prove it.
 * @example
 * const { fake } = await startFakeWorker({ quiet: true });
 * const res = await fetch('http://127.0.0.1:4010/v1/pets', {
 *   headers: { Authorization: 'Bearer free-demo-key' },
 * });
 */
import type { UnhandledFrameHandle } from 'msw';
import { type SetupWorker, setupWorker } from 'msw/browser';
import { type BrowserFake, type BrowserFakeOptions, createBrowserFake } from './browser-fake.ts';

/** Options of `startFakeWorker`: a browser fake's options plus how the worker is started. */
export interface StartFakeWorkerOptions extends BrowserFakeOptions {
  /** Where the page serves `mockServiceWorker.js` (copy it with `npx msw init <dir>`). Default `/mockServiceWorker.js`. */
  readonly serviceWorkerUrl?: string;
  /** Keeps msw from logging every intercepted request to the console. Default `false`. */
  readonly quiet?: boolean;
  /** Requests no handler matches: default `bypass`, so assets and other APIs reach the network. */
  readonly onUnhandledFrame?: UnhandledFrameHandle;
}

/** A browser fake and the started msw worker that answers for it. */
export interface FakeWorker {
  readonly worker: SetupWorker;
  readonly fake: BrowserFake;
  /** Stops the worker (msw waits for the requests in flight), then leaves the fake. */
  stop(): Promise<void>;
}

/**
 * Creates a browser fake and starts an msw worker over its handlers; resolves once the worker
 * intercepts.
 * @example
 * const { fake } = await startFakeWorker({ serviceWorkerUrl: '/mockServiceWorker.js' });
 * await fake.control.force('listPets', 429, 1); // the next listPets answers 429
 */
export async function startFakeWorker(options: StartFakeWorkerOptions = {}): Promise<FakeWorker> {
  const { serviceWorkerUrl, quiet, onUnhandledFrame, ...fakeOptions } = options;
  const fake = await createBrowserFake(fakeOptions);
  const worker = setupWorker(...fake.handlers);
  await worker.start({
    serviceWorker: { url: serviceWorkerUrl ?? '/mockServiceWorker.js' },
    onUnhandledFrame: onUnhandledFrame ?? 'bypass',
    quiet: quiet ?? false,
  });
  return {
    worker,
    fake,
    async stop() {
      await worker.stop();
      await fake.stop();
    },
  };
}

export type { PanelControl } from '../../control-ui/control-reading.ts';
export { type Panel, type PanelOptions, showPanel } from '../../control-ui/show-panel.ts';
export type { RemoteControl } from '../../core/remote-control.ts';
export * from '../../index.ts';
export type { BrowserFake, BrowserFakeOptions, BrowserFakeStatus } from './browser-fake.ts';
export { createBrowserFake } from './browser-fake.ts';
export type { StorageStatus } from './indexeddb-storage.ts';
