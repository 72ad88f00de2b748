/**
 * The project's fake as a target, through each of its doors: in-process (msw `setupServer`
 * answers `fetch`), over a real HTTP port (the HTTP door), through `fake.fetch` (the core, no
 * interception), or straight through msw's `getResponse` over the handlers (the mutant tests use
 * it). `wrap` replaces the handler list, which is how the mutants put a single fault in front of
 * the real fake; only the msw targets take it.
 */
import { getResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { Behaviour } from '../../mock/internal/entry.ts';
import {
  type CreateFakeOptions,
  createFake,
  type FakeWithCore,
  listenHttp,
} from '../../mock/internal/entry.ts';
import type { HarnessClock } from '../http/clock.ts';
import { directRoute, fullCapabilities, type Target } from '../http/target.ts';

/** Options of a fake target. */
export interface FakeTargetOptions {
  /** Options of the fake itself (seed, keys, Retry-After format...). */
  readonly fake?: CreateFakeOptions | undefined;
  /** The key to send. Default `enterprise-demo-key`, whose quota a test never exhausts. */
  readonly apiKey?: string | undefined;
  /** A second key (a demo key of another plan), for `rateLimit.keysIndependent`. Default none. */
  readonly secondApiKey?: string | undefined;
  /** Builds the handler list from the fake; default its own handlers. */
  readonly wrap?: (fake: FakeWithCore) => RequestHandler[];
  /**
   * Let the harness wait on the fake's clock instead of real time. Default true: the clock is
   * frozen at the current time and moves only when the harness waits.
   */
  readonly virtualTime?: boolean;
}

/** A target over a fake, with the fake exposed for assertions. */
export interface FakeTarget extends Target {
  readonly fake: FakeWithCore;
}

function virtualClock(fake: FakeWithCore): HarnessClock {
  return {
    now: () => fake.control.now(),
    sleep: async (ms) => fake.control.advanceTime(Math.max(0, ms) / 1000),
  };
}

function originOf(fake: FakeWithCore): string {
  const origin = fake.config.origins[0];
  if (origin === undefined) throw new Error('petstore-contract: the fake has no origin');
  return origin;
}

async function prepare(options: FakeTargetOptions) {
  const fake = await createFake({ ...options.fake, stagingOrigin: false });
  const handlers = options.wrap?.(fake) ?? fake.handlers;
  let clock: HarnessClock | undefined;
  if (options.virtualTime !== false) {
    // Frozen: only the harness's waits move it, so no window rolls over in the middle of a run.
    fake.control.freezeTime(true);
    clock = virtualClock(fake);
  }
  return {
    fake,
    handlers,
    clock,
    apiKey: options.apiKey ?? 'enterprise-demo-key',
    secondApiKey: options.secondApiKey,
  };
}

/** A target over a prepared fake: what differs between the doors is the name, URL, fetch and close. */
function fakeTarget(
  prepared: Awaited<ReturnType<typeof prepare>>,
  door: {
    name: string;
    baseUrl: string;
    fetch?: typeof fetch;
    close: () => Promise<void>;
  },
): FakeTarget {
  const { fake, clock, apiKey, secondApiKey } = prepared;
  return {
    name: door.name,
    baseUrl: door.baseUrl,
    apiKey,
    ...(secondApiKey === undefined ? {} : { secondApiKey }),
    loopback: true,
    capabilities: fullCapabilities,
    viaPrism: false,
    route: directRoute(door.baseUrl),
    ...(door.fetch === undefined ? {} : { fetch: door.fetch }),
    ...(clock === undefined ? {} : { clock }),
    fake,
    close: door.close,
  };
}

/** The fake in this process: `fetch` to its origin is answered by msw. */
export async function inProcessFakeTarget(options: FakeTargetOptions = {}): Promise<FakeTarget> {
  const prepared = await prepare(options);
  const server = setupServer(...prepared.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  return fakeTarget(prepared, {
    name: 'fake (in-process)',
    baseUrl: `${originOf(prepared.fake)}${prepared.fake.config.basePath}`,
    close: async () => server.close(),
  });
}

/**
 * A behaviour answered by msw handlers (a mutant's wrapper in front of the fake), for the HTTP
 * door: the request is rebuilt as a Fetch Request and the Response read back into an answer.
 */
function handlersBehaviour(fake: FakeWithCore, handlers: RequestHandler[]): Behaviour {
  return {
    owns: (url) => fake.behaviour.owns(url),
    rateLimitHeaders: (authorization) => fake.behaviour.rateLimitHeaders(authorization),
    refusedByDoor: (request, answer, started, body) =>
      fake.behaviour.refusedByDoor(request, answer, started, body),
    connectionId: (kind) => fake.behaviour.connectionId(kind),
    async answer(request) {
      const bodyless = request.method === 'GET' || request.method === 'HEAD';
      const body = bodyless ? undefined : await request.body(Number.POSITIVE_INFINITY);
      const response =
        (await getResponse(
          handlers,
          new Request(request.url, {
            method: request.method,
            headers: request.headerList(),
            ...(body === undefined || body === 'too-large'
              ? {}
              : { body: body as Uint8Array<ArrayBuffer> }),
          }),
        )) ?? new Response(null, { status: 404 });
      if (response.type === 'error') throw new Error('the wrapped fake answered a network error');
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') headers[name] = value;
      });
      const text = await response.text();
      return { status: response.status, headers, body: text === '' ? undefined : text };
    },
  };
}

/** The fake behind its HTTP door on a free loopback port. */
export async function httpFakeTarget(options: FakeTargetOptions = {}): Promise<FakeTarget> {
  const prepared = await prepare(options);
  const { fake, handlers } = prepared;
  const behaviour = options.wrap === undefined ? fake.behaviour : handlersBehaviour(fake, handlers);
  const door = await listenHttp(behaviour, { port: 0, origin: originOf(fake) });
  const address = door.server.address();
  if (address === null || typeof address === 'string')
    throw new Error('petstore-contract: the fake did not get a TCP port');
  const baseUrl = `http://127.0.0.1:${address.port}${fake.config.basePath}`;
  return fakeTarget(prepared, {
    name: `fake over HTTP (${baseUrl})`,
    baseUrl,
    close: () => door.close(),
  });
}

/**
 * A fetch answered by msw's `getResponse` over `handlers`, as the HTTP door answers: no socket,
 * no interception. Honours the abort signal, and turns `Response.error()` into a network error.
 */
function handlersFetch(handlers: RequestHandler[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = request.signal;
    const answer = getResponse(handlers, request);
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const response = await Promise.race([answer, aborted]);
    if (response === undefined) return new Response(null, { status: 404 });
    if (response.type === 'error')
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    return response;
  };
}

/** The fake answered through `getResponse` in this process, with no emulated socket. */
export async function directFakeTarget(options: FakeTargetOptions = {}): Promise<FakeTarget> {
  const prepared = await prepare(options);
  return fakeTarget(prepared, {
    name: 'fake (direct getResponse)',
    baseUrl: `${originOf(prepared.fake)}${prepared.fake.config.basePath}`,
    fetch: handlersFetch(prepared.handlers),
    close: async () => {},
  });
}

/** The fake answered through `fake.fetch`: the behaviour core, in this process, no interception. */
export async function fakeFetchTarget(options: FakeTargetOptions = {}): Promise<FakeTarget> {
  if (options.wrap !== undefined)
    throw new Error('petstore-contract: wrap applies to the msw targets, not fake.fetch');
  const prepared = await prepare(options);
  return fakeTarget(prepared, {
    name: 'fake (fake.fetch)',
    baseUrl: `${originOf(prepared.fake)}${prepared.fake.config.basePath}`,
    fetch: prepared.fake.fetch,
    close: async () => {},
  });
}
