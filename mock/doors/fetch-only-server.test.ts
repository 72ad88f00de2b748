/**
 * The fetch-only Node door as a test author uses it: `createFakeFetchServer` / `setupFetchServer`
 * from `petstore-fake/node`, plain global `fetch`, msw handlers and overrides. Where msw's own
 * `setupServer` defines the behaviour (overrides, `once`, boundaries, unhandled requests, thrown
 * handlers, network errors), the same requests go through both and must be answered alike.
 */
import { once } from 'node:events';
import { createServer, get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { createFake, createFakeFetchServer, type FakeServer, setupFetchServer } from '../node.ts';

const base = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer pro-demo-key' };
let door: FakeServer;
let outside: Server;
let outsideUrl: string;

beforeAll(async () => {
  door = await createFakeFetchServer({ seed: 'empty' });
  door.server.listen({ onUnhandledFrame: 'error' });
  // A real server on a free port, for the requests the door must let through.
  outside = createServer((_request, response) => response.end('outside'));
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
    expect(await (await fetch(outsideUrl)).text()).toBe('outside');
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
  expect(body).toBe('outside');
});

test('close() restores the global fetch; listen() twice is refused', async () => {
  const patched = globalThis.fetch;
  door.server.close();
  expect(globalThis.fetch).not.toBe(patched);
  expect(await (await fetch(outsideUrl)).text()).toBe('outside');
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

/** What a door made of one request: status and body, or the rejection's class. */
async function outcome(request: () => Promise<Response>): Promise<string> {
  try {
    const response = await request();
    return `${response.status} ${(await response.text()).replace(/"stack":"[^"]*"/, '')}`;
  } catch (error) {
    return `rejected ${(error as Error).constructor.name}`;
  }
}

test('answers as setupServer does: chaos drops, a throwing override, an override passthrough', async () => {
  const requests: Array<() => Promise<Response>> = [
    () => fetch(`${base}/pets`, { headers: auth }),
    () => fetch(`${base}/pets/1`, { headers: auth }),
    () => fetch(`${base}/pets/2`, { headers: auth }),
    () => fetch(`${base}/pets?status=sold`, { headers: auth }),
  ];
  const results: string[][] = [];
  for (const setup of [setupServer, setupFetchServer]) {
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
    );
    door.server.close();
    server.listen({ onUnhandledFrame: 'error' });
    try {
      const answers: string[] = [];
      for (const request of requests) answers.push(await outcome(request));
      results.push(answers);
    } finally {
      server.close();
      door.server.listen({ onUnhandledFrame: 'error' });
    }
  }
  expect(results[0]?.[0]).toBe('rejected TypeError');
  expect(results[0]?.[1]).toMatch(/^500 .*broken override/);
  expect(results[0]?.[2]).toMatch(/^404 /);
  expect(results[1]).toEqual(results[0]);
});
