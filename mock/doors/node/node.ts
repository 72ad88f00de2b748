/**
 * The Node doors for tests: the fake's handlers under msw's `setupServer` (fetch, http, https,
 * XMLHttpRequest), so calls to the fake's origins are answered in-process; and the fake's HTTP
 * door started in this process on a real port (`startFake`), for a runner's global set-up.
 * @example
 * const { server, fake } = await createFakeServer();
 * server.listen({ onUnhandledFrame: 'error' });
 */
import { type SetupServer, setupServer } from 'msw/node';
import { type CreateFakeOptions, createFake, type Fake } from '../../core/fake.ts';

/** A fake and the msw server that intercepts requests to it. */
export interface FakeServer {
  readonly server: SetupServer;
  readonly fake: Fake;
}

/** Creates a fake and an msw `setupServer` over its handlers (call `server.listen()` yourself). */
export async function createFakeServer(options: CreateFakeOptions = {}): Promise<FakeServer> {
  const fake = await createFake(options);
  return { server: setupServer(...fake.handlers), fake };
}

export * from '../../index.ts';
export {
  type StartedFake,
  type StartFakeOptions,
  startFake,
} from '../cli/start-fake.ts';
