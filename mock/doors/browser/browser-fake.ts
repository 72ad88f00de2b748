/**
 * A page's fake: by default the one every tab of the origin shares, kept across reloads and
 * browser restarts (shared-fake.ts), as the real service is one service for all of a user's tabs;
 * `shared: false` gives the page a fresh fake of its own. Its msw handlers go to any msw setup
 * (`startFakeWorker` in browser.ts, or msw/vite's `virtual:msw`). Nothing here may import
 * `node:*` or `msw/browser`, so it also runs in Node (its tests do, with a fake IndexedDB).
 */
import type { RequestHandler } from 'msw';
import { ConfigError } from '../../base/config-error.ts';
import { errorAnswer } from '../../base/messages/answer.ts';
import { type Behaviour, ownsUrl } from '../../core/assembly.ts';
import { type CreateFakeOptions, createFake } from '../../core/fake.ts';
import { createFakeFetch } from '../../core/fake-fetch.ts';
import { createMswHandlers } from '../../core/msw-handlers.ts';
import { type RemoteControl, remoteControl } from '../../core/remote-control.ts';
import { type ResolvedConfig, resolveConfig, withProfile } from '../../pipeline/config/config.ts';
import { callControl } from '../../pipeline/control-call.ts';
import type { StorageStatus } from './indexeddb-storage.ts';
import { createCopyWatch, idempotencyKeyOf } from './request-copies.ts';
import { canShareFake, SharedFake } from './shared-fake.ts';
import type { WireRequest } from './tab-messages.ts';
import { watchWorker } from './worker-check.ts';

/** The name tabs share a fake under when `shared` gives none. */
const defaultSharedName = 'petstore-fake';

/** Options of a browser fake: the fake's own options plus how the tabs share it. */
export interface BrowserFakeOptions extends CreateFakeOptions {
  /**
   * One fake for every tab of this origin that uses the same name, kept across reloads and
   * browser restarts in IndexedDB (`true`: the name `petstore-fake`); `false` for a fresh fake
   * in this page only, gone with it. The tab that runs the shared fake applies its own options:
   * start every tab with the same ones. Default `true`.
   */
  readonly shared?: boolean | string;
}

/** Where a browser fake runs and keeps its state. */
export interface BrowserFakeStatus {
  /** Whether this page's fake is shared with the origin's other tabs (and under which name). */
  readonly shared: string | false;
  /** Whether the fake runs in this tab (a shared fake runs in one tab, the leading one). */
  readonly runsHere: boolean;
  /** Where the state is kept, as the tab that runs the fake knows it; `undefined` elsewhere. */
  readonly storage: StorageStatus | undefined;
  /**
   * Creates this tab sent again with the same body while the first was in flight or just answered
   * and no Idempotency-Key told them apart: possibly one create that the browser dispatched twice
   * (after its service worker restarted), so possibly run twice. Told on the console each time.
   */
  readonly possibleCopies?: number;
}

/** A fake for a browser page: shared by the origin's tabs unless made with `shared: false`. */
export interface BrowserFake {
  /** The msw handlers that answer for it: `setupWorker(...fake.handlers)` or msw/vite's `network.configure({ handlers })`. */
  readonly handlers: RequestHandler[];
  /** A `fetch` answered by the fake without the worker, for clients that take a fetch. */
  readonly fetch: typeof fetch;
  /** The QA control surface; each function returns a promise, as the fake may run in another tab. */
  readonly control: RemoteControl;
  /** This page's resolved settings (origins, base path, control prefix). */
  readonly config: ResolvedConfig;
  /** Where the fake runs and keeps its state. */
  status(): BrowserFakeStatus;
  /** Leaves the fake: a tab that runs a shared fake finishes what it started, then hands it over. */
  stop(): Promise<void>;
}

/**
 * Creates the fake of a page: by default the one every tab of the origin shares (this tab runs
 * it, or sends its calls to the tab that does). For msw's own setup (the `network` of msw/vite's
 * virtual module), hand `fake.handlers` to it; `startFakeWorker` does all of it with `setupWorker`.
 * @example
 * const fake = await createBrowserFake();
 * network.configure({ handlers: fake.handlers });
 * await network.enable();
 */
export async function createBrowserFake(options: BrowserFakeOptions = {}): Promise<BrowserFake> {
  const { shared: sharedOption = true, ...fakeOptions } = options;
  const name = sharedOption === true ? defaultSharedName : sharedOption;
  const warn = (message: string) => console.warn(message);
  // First among the handlers: the probe that tells a page the browser left without its worker.
  const probe = watchWorker(warn);
  const withProbe = (handlers: RequestHandler[]) =>
    probe === undefined ? handlers : [probe, ...handlers];
  if (name === false || !canShareFake()) {
    if (name !== false)
      warn(
        'petstore-fake: this browser has no Web Locks or BroadcastChannel, so this tab gets a fake of its own (no sharing between tabs, nothing kept across reloads).',
      );
    const fake = await createFake(fakeOptions);
    return {
      handlers: withProbe(fake.handlers),
      fetch: fake.fetch,
      control: remoteControl((method, args) => callControl(fake.control, method, args)),
      config: fake.config,
      status: () => ({ shared: false, runsHere: true, storage: { kept: 'memory' } }),
      stop: () => Promise.resolve(),
    };
  }
  if (fakeOptions.persistence !== undefined)
    throw new ConfigError(
      'persistence',
      'is the browser storage of a shared fake; pass shared: false to keep a fake of this page in your own',
    );
  // This tab's view of the settings (which URLs are the fake's); a bad option throws here.
  const config = resolveConfig(withProfile(fakeOptions));
  const shared = new SharedFake(name, fakeOptions);
  try {
    await shared.ready;
  } catch (error) {
    await shared.stop();
    throw error;
  }
  const copies = createCopyWatch(warn);
  const behaviour: Pick<Behaviour, 'answer' | 'owns'> = {
    owns: (url) => ownsUrl(config, url),
    async answer(request) {
      const bodyless = request.method === 'GET' || request.method === 'HEAD';
      const wire: WireRequest = {
        method: request.method,
        url: request.url,
        headers: request.headerList(),
        body: bodyless ? new Uint8Array() : await request.body(config.maxBodyBytes),
      };
      const key = idempotencyKeyOf(wire);
      const arrival = copies.arrived(wire, key !== undefined);
      const reply = await shared.call({ kind: 'request', request: arrival.wire }, key);
      arrival.done();
      // Its marks came with it: the handlers fail the fetch when it drops the connection.
      if (reply.kind === 'answer') return reply.answer;
      return errorAnswer(
        'service_unavailable',
        reply.kind === 'error' ? reply.message : 'The fake answered a request with a value.',
      );
    },
  };
  return {
    handlers: withProbe(createMswHandlers(behaviour)),
    fetch: createFakeFetch(behaviour, config.origins),
    control: remoteControl((method, args) => shared.call({ kind: 'control', method, args })),
    config,
    status: () => ({
      shared: name,
      runsHere: shared.leads(),
      storage: shared.storage()?.status(),
      possibleCopies: copies.count(),
    }),
    stop: () => shared.stop(),
  };
}
