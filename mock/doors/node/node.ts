/**
 * The Node doors for tests: the fake's handlers under msw's `setupServer` (fetch, http, https,
 * XMLHttpRequest), or under `setupFetchServer` (the global `fetch` only, no emulated socket, much
 * cheaper a request: bench/in-process.ts), so calls to the fake's origins are answered in-process.
 * @example
 * const { server, fake } = await createFakeServer();
 * server.listen({ onUnhandledFrame: 'error' });
 */
import { type SetupServer, setupServer } from 'msw/node';
import { type CreateFakeOptions, createFake, type Fake } from '../../fake.ts';
import { setupFetchServer } from './fetch-only-server.ts';

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

/**
 * Creates a fake and a fetch-only msw server over its handlers (call `server.listen()` yourself):
 * the same API as `createFakeServer`, for suites whose code under test calls the global `fetch`.
 */
export async function createFakeFetchServer(options: CreateFakeOptions = {}): Promise<FakeServer> {
  const fake = await createFake(options);
  return { server: setupFetchServer(...fake.handlers), fake };
}

export * from '../../index.ts';
export { setupFetchServer };
