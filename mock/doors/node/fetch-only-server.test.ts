/**
 * The fetch-only Node door as a test author uses it: `createFakeFetchServer` / `setupFetchServer`
 * from `petstore-fake/node`, plain global `fetch`, msw handlers and overrides. Where msw's own
 * `setupServer` defines the behaviour (overrides, `once`, boundaries, unhandled requests, thrown
 * handlers, network errors), the same requests go through both and must be answered alike.
 */
import { once } from 'node:events';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { bypass, HttpResponse, http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { createFake, createFakeFetchServer, type FakeServer, setupFetchServer } from './node.ts';

const base = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer pro-demo-key' };
let door: FakeServer;
let outside: Server;
let outsideUrl: string;

beforeAll(async () => {
  door = await createFakeFetchServer({ seed: 'empty' });
  door.server.listen({ onUnhandledFrame: 'error' });
  // A real server on a free port, for the requests the door must let through.
  outside = createServer((request, response) =>
    response.end(request.headers.accept ? `outside accept=${request.headers.accept}` : 'outside'),
  );
  outside.listen(0, '127.0.0.1');
  await once(outside, 'listening');
  outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  door.server.resetHandlers();
  await door.fake.control.reset('empty');
});
afterAll(async () => {
  if (door.server.readyState === 1) door.server.close();
  outside.close();
  await once(outside, 'close');
});

test('answers the global fetch in-process: create, list by status, rate-limit headers', async () => {
  const created = await fetch(`${base}/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Inky', categoryId: 7, status: 'pending' }),
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number };
  const listed = await fetch(new Request(`${base}/pets?status=pending`, { headers: auth }));
  expect(await listed.json()).toEqual([
    { id: pet.id, name: 'Inky', categoryId: 7, status: 'pending' },
  ]);
  expect(listed.headers.get('X-RateLimit-Limit')).toBe('300');
  expect(door.fake.control.snapshot().pets).toHaveLength(1);
  const unauthorised = await fetch(`${base}/pets`);
  expect(unauthorised.status).toBe(401);
  expect(await unauthorised.json()).toMatchObject({ code: 'unauthorized', status: 401 });
});

test('server.use puts an msw override in front; once, restoreHandlers and resetHandlers as in msw', async () => {
  door.server.use(
    http.get(`${base}/pets/:id`, () => HttpResponse.json({ overridden: true }, { status: 418 })),
    http.get(`${base}/pets`, () => HttpResponse.json([{ once: true }]), { once: true }),
  );
  const overridden = await fetch(`${base}/pets/1`, { headers: auth });
  expect(overridden.status).toBe(418);
  expect(await overridden.json()).toEqual({ overridden: true });
  expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toEqual([{ once: true }]);
  // The one-shot override is used up: the fake answers again, until restoreHandlers.
  expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toEqual([]);
  door.server.restoreHandlers();
  expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toEqual([{ once: true }]);
  expect(door.server.listHandlers()).toHaveLength(3);
  door.server.resetHandlers();
  expect(door.server.listHandlers()).toHaveLength(1);
  expect((await fetch(`${base}/pets/1`, { headers: auth })).status).toBe(404);
});

test('boundary() scopes overrides to the wrapped callback, as setupServer does', async () => {
  const inside = await door.server.boundary(async () => {
    door.server.use(http.get(`${base}/pets`, () => HttpResponse.json(['inside'])));
    return (await fetch(`${base}/pets`, { headers: auth })).json();
  })();
  expect(inside).toEqual(['inside']);
  expect(await (await fetch(`${base}/pets`, { headers: auth })).json()).toEqual([]);
});

test("onUnhandledFrame 'error' rejects an unhandled fetch; 'bypass' performs it as-is", async () => {
  await expect(fetch(outsideUrl)).rejects.toThrow();
  const bypassing = setupFetchServer(...(await createFake()).handlers);
  door.server.close();
  bypassing.listen({ onUnhandledFrame: 'bypass' });
  try {
    expect(await (await fetch(outsideUrl)).text()).toMatch(/^outside/);
  } finally {
    bypassing.close();
    door.server.listen({ onUnhandledFrame: 'error' });
  }
});

test('only fetch is intercepted: node:http requests go to the network even in strict mode', async () => {
  const body = await new Promise<string>((resolve, reject) => {
    httpGet(outsideUrl, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });
  expect(body).toMatch(/^outside/);
});

test('close() restores the global fetch; listen() twice is refused', async () => {
  const patched = globalThis.fetch;
  door.server.close();
  expect(globalThis.fetch).not.toBe(patched);
  expect(await (await fetch(outsideUrl)).text()).toMatch(/^outside/);
  door.server.listen({ onUnhandledFrame: 'error' });
  expect(() => door.server.listen()).toThrow(/listen\(\) was called twice/);
  expect((await fetch(`${base}/pets`, { headers: auth })).status).toBe(200);
});

test('life-cycle events: request:start and response:mocked with the answer', async () => {
  const seen: string[] = [];
  const onStart = ({ request }: { request: Request }) => {
    seen.push(`start ${new URL(request.url).pathname}`);
  };
  const onMocked = ({ response }: { response: Response }) => {
    seen.push(`mocked ${response.status}`);
  };
  door.server.events.on('request:start', onStart);
  door.server.events.on('response:mocked', onMocked);
  try {
    const response = await fetch(`${base}/pets/99`, { headers: auth });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['start /v1/pets/99', 'mocked 404']);
  } finally {
    door.server.events.removeAllListeners();
  }
});

test('an aborted fetch rejects with the abort reason', async () => {
  const controller = new AbortController();
  controller.abort(new Error('gave up'));
  await expect(fetch(`${base}/pets`, { headers: auth, signal: controller.signal })).rejects.toThrow(
    'gave up',
  );
});

/** What a door made of one request: status, URL, redirected and body, or the rejection's class. */
async function outcome(request: () => Promise<Response>): Promise<string> {
  try {
    const response = await request();
    const body = (await response.text()).replace(/"stack":"(\\.|[^"\\])*"/, '');
    return `${response.status} ${response.url} redirected=${response.redirected} ${body}`;
  } catch (error) {
    return `rejected ${(error as Error).constructor.name}`;
  }
}

test('answers as setupServer does, on both of its paths: drops, throwing and passthrough overrides, bypass, redirects, gzip, unhandled and aborted requests', async () => {
  const aborted = new AbortController();
  aborted.abort(new RangeError('gave up'));
  const requests: Array<() => Promise<Response>> = [
    () => fetch(`${base}/pets`, { headers: auth }),
    () => fetch(`${base}/pets/1`, { headers: auth }),
    () => fetch(`${base}/pets/2`, { headers: auth }),
    () => fetch(`${base}/pets?status=sold`, { headers: auth }),
    () => fetch(`${base}/old-pets`, { headers: auth }),
    () => fetch(`${base}/old-pets`, { headers: auth, redirect: 'manual' }),
    () => fetch(`${base}/zipped`),
    () => fetch(`${outsideUrl}through`),
    () => fetch(bypass(new Request(outsideUrl, { headers: { Accept: 'text/plain' } }))),
    () => fetch('http://127.0.0.1:9/unhandled'),
    () => fetch(`${base}/pets`, { headers: auth, signal: aborted.signal }),
  ];
  const results: Record<string, string[]> = {};
  for (const [name, setup, listen] of [
    ['setupServer', setupServer, false],
    ['fetch-only', setupFetchServer, false],
    ['fetch-only with an event listener (msw frame path)', setupFetchServer, true],
  ] as const) {
    const fake = await createFake({
      seed: 'empty',
      chaos: { seed: 3, rules: [{ operationId: 'listPets', drop: 1 }] },
    });
    fake.control.freezeTime(true);
    const server = setup(...fake.handlers);
    server.use(
      http.get(`${base}/pets/1`, () => {
        throw new Error('broken override');
      }),
      http.get(`${base}/pets/2`, () => undefined),
      http.get(
        `${base}/old-pets`,
        () => new Response(null, { status: 302, headers: { Location: `${base}/pets/3` } }),
      ),
      http.get(
        `${base}/zipped`,
        () =>
          new Response(gzipSync('unzipped'), {
            headers: { 'Content-Encoding': 'gzip', 'Content-Type': 'text/plain' },
          }),
      ),
      http.get(`${outsideUrl}through`, () => passthrough()),
    );
    if (listen) server.events.on('request:start', () => {});
    door.server.close();
    // msw prints what it refuses; the printing is not what is compared here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const answers: string[] = [];
      for (const request of requests) answers.push(await outcome(request));
      results[name] = answers;
    } finally {
      server.close();
      quiet.mockRestore();
      door.server.listen({ onUnhandledFrame: 'error' });
    }
  }
  const msw = results.setupServer ?? [];
  expect(msw[0]).toBe('rejected TypeError');
  expect(msw[1]).toMatch(/^500 .*broken override/);
  expect(msw[2]).toMatch(/^404 /);
  expect(msw[4]).toMatch(/^404 http:\/\/127\.0\.0\.1:4010\/v1\/pets\/3 redirected=true /);
  expect(msw[5]).toMatch(/^302 /);
  expect(msw[6]).toMatch(/ unzipped$/);
  expect(msw[7]).toMatch(/^200 .*outside/);
  expect(msw[8]).toMatch(/^200 .*outside accept=text\/plain$/);
  expect(msw[9]).toMatch(/^rejected /);
  expect(msw[10]).toBe('rejected RangeError');
  expect(results['fetch-only']).toEqual(msw);
  expect(results['fetch-only with an event listener (msw frame path)']).toEqual(msw);
});
