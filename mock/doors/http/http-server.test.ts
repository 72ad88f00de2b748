/**
 * The fake through its HTTP door, as a client sees it: supertest against a real port.
 */
import { Agent, get as httpGet } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createClock } from '../../base/clock/clock.ts';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import type { ExchangeRecord } from '../../pipeline/config/config.ts';
import { type HttpDoor, listenHttp } from './http-server.ts';

const key = { Authorization: 'Bearer free-demo-key' };
const json = { ...key, 'Content-Type': 'application/json' };
const start = Date.UTC(2026, 5, 1, 12, 0, 15); // 15 s into a minute
const clock = createClock(() => start);
const exchanges: ExchangeRecord[] = [];
let fake: FakeWithCore;
let door: HttpDoor;
let staging: HttpDoor;
let api: ReturnType<typeof request>;

beforeAll(async () => {
  fake = await createFake({ clock, onExchange: (record) => exchanges.push(record) });
  const [origin, stagingOrigin] = fake.config.origins;
  door = await listenHttp(fake.behaviour, { port: 0, origin: origin as string });
  staging = await listenHttp(fake.behaviour, { port: 0, origin: stagingOrigin as string });
  api = request(localUrl(door));
});
afterAll(async () => {
  await door.close();
  await staging.close();
});
beforeEach(async () => {
  await fake.control.reset();
  fake.control.freezeTime(true);
  fake.control.setTime(start);
});

/** The door's real socket address (its `origin` is the one the fake answers as). */
function localUrl(target: HttpDoor): string {
  return `http://127.0.0.1:${(target.server.address() as { port: number }).port}`;
}

function expectRateLimitHeaders(response: request.Response) {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(response.headers[name], name).toMatch(/^\d+$/);
  }
}

function expectError(response: request.Response, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  expect(Object.keys(response.body).sort()).toEqual(['code', 'message', 'status']);
  expect(response.body.status).toBe(status);
  if (code !== undefined) expect(response.body.code).toBe(code);
  expectRateLimitHeaders(response);
}

test('returns at most 20 pets when limit is omitted, with the rate-limit headers', async () => {
  const response = await api.get('/v1/pets').set(key);
  expect(response.status).toBe(200);
  expect(response.body).toHaveLength(20);
  expect(response.headers).toMatchObject({
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': String(Date.UTC(2026, 5, 1, 12, 1) / 1000),
  });
});

test('returns only pets with the requested status, up to limit', async () => {
  const response = await api.get('/v1/pets?status=pending&limit=100').set(key);
  expect(response.status).toBe(200);
  expect(response.body.length).toBeGreaterThan(20);
  expect(response.body.length).toBeLessThanOrEqual(100);
  expect(new Set(response.body.map((pet: { status: string }) => pet.status))).toEqual(
    new Set(['pending']),
  );
});

test('answers malformed or out-of-range query values with 400 invalid_query', async () => {
  for (const query of ['limit=0', 'limit=101', 'limit=ten', 'status=adopted', 'limit=5&limit=6']) {
    expectError(await api.get(`/v1/pets?${query}`).set(key), 400, 'invalid_query');
  }
});

test('creates a pet with an assigned id and the default status, then serves it', async () => {
  const created = await api.post('/v1/pets').set(json).send({ name: 'Nemo', categoryId: 3 });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({ id: 181, name: 'Nemo', categoryId: 3, status: 'available' });
  expectRateLimitHeaders(created);
  const fetched = await api.get('/v1/pets/181').set(key);
  expect(fetched.status).toBe(200);
  expect(fetched.body).toEqual(created.body);
});

test('keeps every digit of an int64 categoryId', async () => {
  const created = await api
    .post('/v1/pets')
    .set(json)
    .send('{"name":"Big","categoryId":9223372036854775807}');
  expect(created.status).toBe(201);
  expect(created.text).toContain('"categoryId":9223372036854775807');
});

test('answers invalid bodies with 400 and stores nothing', async () => {
  const cases: [string, Record<string, string>, string][] = [
    ['{"name":"Rex"}', json, 'invalid_body'],
    ['{"categoryId":1}', json, 'invalid_body'],
    ['{"name":"Rex","categoryId":"1"}', json, 'invalid_body'],
    ['{"name":"Rex","categoryId":1,"status":"adopted"}', json, 'invalid_body'],
    ['[]', json, 'invalid_body'],
    ['{"name":', json, 'invalid_json'],
    ['', json, 'missing_body'],
    [
      '{"name":"Rex","categoryId":1}',
      { ...key, 'Content-Type': 'text/plain' },
      'invalid_content_type',
    ],
  ];
  for (const [body, headers, code] of cases) {
    expectError(await api.post('/v1/pets').set(headers).send(body), 400, code);
  }
  expect(fake.control.snapshot().pets).toHaveLength(180);
});

test('getPet carries Deprecation, Sunset and Link on success and on 404', async () => {
  for (const [path, status] of [
    ['/v1/pets/1', 200],
    ['/v1/pets/999999', 404],
  ] as const) {
    const response = await api.get(path).set(key);
    expect(response.status).toBe(status);
    expect(response.headers.deprecation).toMatch(/^@\d+$/);
    expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.link).toMatch(
      /^<http:\/\/127\.0\.0\.1:4010\/v1\/pets>; rel="successor-version"$/,
    );
  }
});

test('answers ids that are not int64, or past 2^53, with 404 and never another pet', async () => {
  for (const id of [
    'abc',
    '1.0',
    '1e2',
    '0x1',
    '-1',
    '9007199254740993',
    '9223372036854775808',
    '123456789012345678901234567890',
  ]) {
    expectError(await api.get(`/v1/pets/${id}`).set(key), 404, 'not_found');
  }
});

test('getPet is gone once the clock passes the sunset', async () => {
  fake.control.setTime(Date.UTC(2030, 11, 5));
  const response = await api.get('/v1/pets/1').set(key);
  expectError(response, 404, 'endpoint_removed');
  expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
});

test('answers missing, malformed and unknown keys with 401 and a Bearer challenge', async () => {
  const missing = await api.get('/v1/pets');
  expectError(missing, 401, 'unauthorized');
  expect(missing.headers['www-authenticate']).toBe('Bearer');
  for (const header of ['Bearer nope-nope-nope', 'free-demo-key', 'Basic abc']) {
    const response = await api.post('/v1/pets').set({ Authorization: header });
    expectError(response, 401, 'unauthorized');
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  }
});

test('refuses the request past the limit with 429, Retry-After and zero remaining', async () => {
  fake.control.updateKey('demo-free', { limits: { perMinute: 2, perDay: 100 } });
  await api.get('/v1/pets').set(key).expect(200);
  await api.get('/v1/pets').set(key).expect(200);
  const refused = await api.get('/v1/pets').set(key);
  expectError(refused, 429, 'rate_limited');
  expect(refused.headers['retry-after']).toBe('45');
  expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  fake.control.advanceTime(45);
  await api.get('/v1/pets').set(key).expect(200);
});

test('concurrent requests on one key never get past the limit', async () => {
  fake.control.updateKey('demo-free', { limits: { perMinute: 7, perDay: 100 } });
  const responses = await Promise.all(
    Array.from({ length: 30 }, () => api.get('/v1/pets?limit=1').set(key)),
  );
  expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
  expect(responses.filter((r) => r.status === 429)).toHaveLength(23);
});

test('serves the staging origin with the same paths', async () => {
  const response = await request(localUrl(staging)).get('/v1/pets/2').set(key);
  expect(response.status).toBe(200);
  expect(response.headers.link).toContain('http://127.0.0.1:4011/v1/pets');
});

test('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
  expectError(await api.get('/v1/orders').set(key), 404, 'route_not_found');
  const put = await api.put('/v1/pets').set(key);
  expectError(put, 405, 'method_not_allowed');
  expect(put.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  expect((await api.get('/elsewhere')).status).toBe(404);
});

test('forced responses come back for the next N requests, then real ones', async () => {
  fake.control.force('listPets', 503, 2);
  for (let i = 0; i < 2; i++) {
    const forced = await api.get('/v1/pets').set(key);
    expectError(forced, 503, 'service_unavailable');
    expect(forced.headers['retry-after']).toBe('1');
  }
  await api.get('/v1/pets').set(key).expect(200);
});

test('lets browser apps on localhost origins call it, and no others', async () => {
  const allowed = await api.get('/v1/pets').set({ ...key, Origin: 'http://localhost:5173' });
  expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  expect(allowed.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
  const preflight = await api
    .options('/v1/pets')
    .set({ Origin: 'http://127.0.0.1:3000', 'Access-Control-Request-Method': 'POST' });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
  const foreign = await api.get('/v1/pets').set({ ...key, Origin: 'https://evil.example' });
  expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
});

test('logs every exchange with the key id, never the key', async () => {
  exchanges.length = 0;
  await api.get('/v1/pets').set(key);
  await api.get('/v1/pets').set({ Authorization: 'Bearer some-secret-guess' });
  expect(exchanges.map((e) => [e.status, e.keyId])).toEqual([
    [200, 'demo-free'],
    [401, 'unknown'],
  ]);
  expect(JSON.stringify(exchanges)).not.toMatch(/free-demo-key|some-secret-guess/);
});

test('sends a long page as its UTF-8 bytes, and the new bytes once the page changes', async () => {
  const page = async () => {
    const response = await api.get('/v1/pets?limit=100').set(key);
    expect(response.status).toBe(200);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
    return response.body as { name: string }[];
  };
  const before = await page();
  expect(JSON.stringify(before).length).toBeGreaterThan(512); // long enough to be kept encoded
  expect(await page()).toEqual(before);
  // Past Latin-1, so the text is UTF-16 in V8 and its bytes differ from its length.
  const name = 'Mochi 八 🐢';
  expect((await api.post('/v1/pets').set(json).send({ name, categoryId: 1 })).status).toBe(201);
  const after = await page();
  expect(after[0]?.name).toBe(name);
  expect(after.slice(1)).toEqual(before.slice(0, 99));
});

test("a connection keeps one id, and the fake's two doors never hand out the same one", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (target: HttpDoor) =>
    new Promise<number>((resolve, reject) => {
      const { port } = target.server.address() as { port: number };
      httpGet({ host: '127.0.0.1', port, path: '/v1/pets?limit=1', headers: key, agent }, (res) =>
        res.resume().on('end', () => resolve(res.statusCode ?? 0)),
      ).on('error', reject);
    });
  expect([await get(door), await get(door), await get(staging)]).toEqual([200, 200, 200]);
  agent.destroy();
  // The journal lists the newest first: these three, in the order they were sent.
  const connections = fake.control
    .requests()
    .requests.slice(0, 3)
    .map((entry) => entry.connection)
    .reverse();
  expect(connections).toHaveLength(3);
  const [first, second, third] = connections;
  expect(first).toMatch(/^http-\d+$/);
  expect(second).toBe(first);
  expect(third).toMatch(/^http-\d+$/);
  expect(third).not.toBe(first);
});
