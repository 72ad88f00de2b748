/**
 * The Node doors for tests: the fake's handlers under msw's `setupServer` (fetch, http, https,
 * XMLHttpRequest), so calls to the fake's origins are answered in-process, beside the app's own
 * msw handlers; and the fake's HTTP door started in this process on a real port (`startFake`),
 * for a runner's global set-up.
 * @example
 * const { server, fake } = await createFakeServer({ handlers: [http.get('https://api.example/me', me)] });
 * server.listen({ onUnhandledFrame: 'error' });
 */
import type { RequestHandler } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { type CreateFakeOptions, createFake, type Fake } from '../../core/fake.ts';

/** A fake and the msw server that intercepts requests to it. */
export interface FakeServer {
  readonly server: SetupServer;
  readonly fake: Fake;
}

/** Options of `createFakeServer`: createFake's, and the app's own msw handlers. */
export interface CreateFakeServerOptions extends CreateFakeOptions {
  /**
   * The app's own msw handlers (its other APIs), asked before the fake's and kept by
   * `server.resetHandlers()`, as msw keeps every handler given to `setupServer`.
   */
  readonly handlers?: readonly RequestHandler[];
}

/**
 * Creates a fake and an msw `setupServer` over the app's `handlers`, then the fake's (call
 * `server.listen()` yourself). msw asks handlers in order and stops at the first that answers:
 * the fake answers every URL of its origins, so a handler of yours for its origin answers only
 * in front of it, and one that returns nothing hands the request on to the fake.
 */
export async function createFakeServer(options: CreateFakeServerOptions = {}): Promise<FakeServer> {
  const { handlers = [], ...fakeOptions } = options;
  const fake = await createFake(fakeOptions);
  return { server: setupServer(...handlers, ...fake.handlers), fake };
}

export * from '../../index.ts';
export {
  type StartedFake,
  type StartFakeOptions,
  startFake,
} from '../cli/start-fake.ts';
