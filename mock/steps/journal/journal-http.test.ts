/**
 * The request journal over HTTP, as a QA script or a Playwright test reaches it: curl-like
 * requests (node's fetch) against the HTTP door, `GET /__control/requests` with its filters,
 * its 400s naming the valid values, and `DELETE /__control/requests`.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createClock } from '../../base/clock/clock.ts';
import { createFake } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../../doors/http/http-server.ts';
import type { JournalAnswer } from './journal-entry.ts';

let door: HttpDoor;
let base: string;
const start = Date.parse('2026-06-01T12:00:00Z');
const free = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'qa-script' };
const json = { 'Content-Type': 'application/json' };

beforeAll(async () => {
  const clock = createClock();
  const fake = await createFake({ clock });
  door = await listenHttp(fake.behaviour, { port: 0, origin: fake.config.origins[0] as string });
  base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
});
afterAll(() => door.close());
beforeEach(async () => {
  await fetch(`${base}/__control/reset`, { method: 'POST', headers: json });
  await fetch(`${base}/__control/clock`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ set: start, freeze: true }),
  });
});

async function journal(query = ''): Promise<JournalAnswer> {
  const res = await fetch(`${base}/__control/requests${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JournalAnswer;
}

test('GET /__control/requests lists what the app sent over HTTP, newest first, never the key', async () => {
  await fetch(`${base}/v1/pets?limit=1`, { headers: free });
  await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...free, ...json },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  // A secret in the query, a CORS preflight and a path outside the API.
  await fetch(`${base}/v1/pets?api_key=free-demo-key`, { headers: { 'X-Client-Id': 'leaky' } });
  await fetch(`${base}/v1/pets`, {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' },
  });
  await fetch(`${base}/nowhere`, { headers: free });
  // Control requests are not the app's: they are not journalled.
  await fetch(`${base}/__control/state`);

  const { total, requests } = await journal();
  expect(total).toBe(5);
  expect(requests.map((e) => `${e.method} ${e.path}${e.query} ${e.status}`)).toEqual([
    'GET /nowhere 404',
    'OPTIONS /v1/pets 204',
    'GET /v1/pets?api_key=[redacted] 401',
    'POST /v1/pets 201',
    'GET /v1/pets?limit=1 200',
  ]);
  const [nowhere, preflight, leaky, create, list] = requests;
  expect(list).toMatchObject({
    operationId: 'listPets',
    keyId: 'demo-free',
    clientId: 'qa-script',
    headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' },
  });
  // The HTTP door names the socket each request came on; keep-alive reuses it.
  expect(list?.connection).toMatch(/\S/);
  expect(list?.connection).not.toBe('in-process');
  expect(create).toMatchObject({
    operationId: 'createPet',
    body: '{"name":"Rex","categoryId":1}',
    bodyBytes: 29,
  });
  expect(leaky).toMatchObject({ keyId: '-', clientId: 'leaky', errorCode: 'unauthorized' });
  expect(preflight).toMatchObject({ operationId: null, keyId: '-', refusedEarly: false });
  expect(nowhere).toMatchObject({ refusedEarly: true, errorCode: 'route_not_found' });
  const text = await (await fetch(`${base}/__control/requests`)).text();
  expect(text).not.toContain('free-demo-key');
});

test('filters over HTTP: status class, operation, key, client, time window and limit', async () => {
  await fetch(`${base}/v1/pets`, { headers: free });
  await fetch(`${base}/__control/clock`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ advance: 30 }),
  });
  await fetch(`${base}/v1/pets/999999`, { headers: free });
  await fetch(`${base}/v1/pets`, { headers: { Authorization: 'Bearer pro-demo-key' } });
  expect((await journal('?status=4xx')).total).toBe(1);
  expect((await journal('?status=404&operationId=getPet')).total).toBe(1);
  expect((await journal('?keyId=demo-pro')).total).toBe(1);
  expect((await journal('?clientId=qa-script&method=get')).total).toBe(2);
  expect((await journal('?since=2026-06-01T12:00:30Z')).total).toBe(2);
  expect((await journal(`?until=${start + 30_000}`)).total).toBe(1);
  expect((await journal('?path=/v1/pets/')).total).toBe(1);
  const limited = await journal('?limit=2');
  expect(limited.total).toBe(3);
  expect(limited.requests.map((e) => e.seq)).toEqual([
    limited.requests[0]?.seq,
    (limited.requests[0]?.seq ?? 0) - 1,
  ]);
});

test('a bad filter is a 400 Error naming the valid values; an unknown one names the filters', async () => {
  const refused = async (query: string) => {
    const res = await fetch(`${base}/__control/requests${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: 'invalid_control_request', status: 400 });
    return body.message;
  };
  expect(await refused('?status=600')).toContain('from 100 to 599 or a class 1xx to 5xx');
  expect(await refused('?status=abc')).toContain('got "abc"');
  expect(await refused('?operationId=updatePet')).toContain('listPets, createPet, getPet, none');
  expect(await refused('?method=BREW')).toContain('one of GET, HEAD, POST');
  expect(await refused('?limit=-3')).toContain('limit must be a whole number from 1 to');
  expect(await refused('?since=soon')).toContain('epoch milliseconds or an ISO date');
  expect(await refused('?until=99999999999999999999')).toContain('epoch milliseconds');
  expect(await refused('?keyId=')).toContain('keyId must be text of 1 to 64 characters');
  expect(await refused('?colour=red')).toContain('the filters are method, operationId, path');
  expect(await refused('?__proto__=x')).toContain('unknown field "__proto__"');
  expect(await refused('?status=200&status=429')).toContain('"status" is given twice');
});

test('DELETE /__control/requests clears the journal; the next request is #1 again', async () => {
  await fetch(`${base}/v1/pets`, { headers: free });
  await fetch(`${base}/v1/pets`, { headers: free });
  expect((await journal()).requests[0]?.seq).toBe(2);
  const cleared = await fetch(`${base}/__control/requests`, { method: 'DELETE', headers: json });
  expect(cleared.status).toBe(200);
  expect(await cleared.json()).toMatchObject({ total: 0, requests: [], dropped: 0 });
  await fetch(`${base}/v1/pets`, { headers: free });
  const after = await journal();
  expect(after.total).toBe(1);
  expect(after.requests[0]?.seq).toBe(1);
  // A change without a JSON content type is refused, as every control change is.
  const plain = await fetch(`${base}/__control/requests`, { method: 'DELETE' });
  expect(plain.status).toBe(400);
  expect((await journal()).total).toBe(1);
});

test('a body over the cap, refused by the HTTP door before the fake reads it, is journalled as refused early', async () => {
  const res = await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...free, ...json },
    body: 'x'.repeat(2 * 1024 * 1024),
  });
  expect(res.status).toBe(413);
  const [refused] = (await journal()).requests;
  expect(refused).toMatchObject({
    method: 'POST',
    path: '/v1/pets',
    status: 413,
    errorCode: 'payload_too_large',
    refusedEarly: true,
    clientId: 'qa-script',
    // Refused unread: its size is not known, and no part of it is kept.
    body: null,
    bodyBytes: null,
    bodyTruncated: true,
    // The caller's window, nothing spent (docs/fake.md: refusals before the rate limit).
    headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '60' },
  });
});
