/**
 * The request journal in process, as a test author meets it: `fake.fetch` and msw in Node feed
 * it, `fake.control.requests(filter)` reads it, `clearRequests()` and a reset empty it, and
 * `expectRequests` counts it, failing with WireMock's near misses (an entry that matches all but
 * one field of the pattern, with the field that differs: WireMock's `NearMiss`,
 * `findNearMissesForRequestPattern`).
 */
import { inspect } from 'node:util';
import { setupServer } from 'msw/node';
import { afterEach, expect, test } from 'vitest';
import { createClock } from '../../base/clock/clock.ts';
import { createFake } from '../../core/fake.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import { expectRequests, RequestCountError } from './expect-requests.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'checkout-web' };
const json = { ...free, 'Content-Type': 'application/json' };
const start = Date.parse('2026-06-01T12:00:00Z');

/** A fake on a frozen clock, so every time the journal shows is one the test set. */
async function frozenFake() {
  const clock = createClock();
  // Frozen first, then set: set and then frozen, the clock runs on for the moment between the two
  // calls (a loaded machine makes it a millisecond), and the first entry's time reads 12:00:00.001.
  clock.freeze(true);
  clock.set(start);
  return createFake({ clock });
}

let server: ReturnType<typeof setupServer> | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

test('every request through fake.fetch is journalled, newest first, with its window and marks', async () => {
  const fake = await frozenFake();
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
  await fake.fetch(`${api}/pets?limit=2`, { headers: free });
  fake.control.advanceTime(1);
  const limited = await fake.fetch(`${api}/pets?limit=2`, { headers: free });
  expect(limited.status).toBe(429);
  fake.control.force('getPet', 503, 1);
  await fake.fetch(`${api}/pets/1`, { headers: free });
  // A request target past 8 KiB is refused before any pipeline runs (414).
  await fake.fetch(`${api}/pets?x=${'y'.repeat(9000)}`, { headers: free });

  const { total, requests, dropped } = fake.control.requests();
  expect(total).toBe(4);
  expect(dropped).toBe(0);
  // Newest arrival first: the over-long target, the forced getPet, the 429, the first 200.
  expect(requests.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
    ['GET', '/v1/pets', 414],
    ['GET', '/v1/pets/1', 503],
    ['GET', '/v1/pets', 429],
    ['GET', '/v1/pets', 200],
  ]);
  const [early, forced, refused, first] = requests;
  expect(first).toMatchObject({
    seq: 1,
    at: '2026-06-01T12:00:00.000Z',
    atMs: start,
    query: '?limit=2',
    operationId: 'listPets',
    keyId: 'demo-free',
    clientId: 'checkout-web',
    connection: 'in-process',
    errorCode: null,
    headers: { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0' },
    forced: false,
    chaos: false,
    stubbed: false,
    dropped: false,
    refusedEarly: false,
    body: null,
  });
  expect(first?.headers['Retry-After']).toBeUndefined();
  // The 429 shows what the client was told: its window and when to come back.
  expect(refused).toMatchObject({
    at: '2026-06-01T12:00:01.000Z',
    errorCode: 'rate_limited',
    headers: { 'X-RateLimit-Remaining': '0', 'Retry-After': '59' },
  });
  expect(forced).toMatchObject({ operationId: 'getPet', forced: true, chaos: false });
  expect(early).toMatchObject({
    operationId: null,
    refusedEarly: true,
    errorCode: 'uri_too_long',
  });
  // Its target as far as the journal keeps one (8 KiB), no further.
  expect(early?.query.length).toBeLessThanOrEqual(8192);
  expect(typeof first?.durationMs).toBe('number');
  expect(Date.parse(first?.realAt ?? '')).toBeGreaterThan(Date.parse('2026-01-01'));
  // No secret anywhere in it.
  expect(JSON.stringify(fake.control.requests())).not.toContain('free-demo-key');
});

test('filters pick by method, operation, path prefix, status or class, key, client and time', async () => {
  const fake = await frozenFake();
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Nemo', categoryId: 3 }),
  });
  fake.control.advanceTime(10);
  await fake.fetch(`${api}/pets/999999`, { headers: { Authorization: 'Bearer pro-demo-key' } });
  await fake.fetch(`${api}/pets`, { headers: { Authorization: 'Bearer nope-not-a-key' } });
  const count = (filter: Parameters<typeof fake.control.requests>[0]) =>
    fake.control.requests(filter).total;
  expect(count({ method: 'post' })).toBe(1);
  expect(count({ operationId: 'getPet' })).toBe(1);
  expect(count({ path: '/v1/pets/' })).toBe(1);
  expect(count({ path: '/v1/pets' })).toBe(4);
  expect(count({ status: 201 })).toBe(1);
  expect(count({ status: '4xx' })).toBe(2);
  expect(count({ keyId: 'demo-pro' })).toBe(1);
  expect(count({ keyId: 'unknown' })).toBe(1);
  expect(count({ clientId: 'checkout-web' })).toBe(2);
  expect(count({ since: start + 10_000 })).toBe(2);
  expect(count({ until: '2026-06-01T12:00:10Z' })).toBe(2);
  expect(count({ since: start, until: start + 1 })).toBe(2);
  const limited = fake.control.requests({ limit: 1 });
  expect(limited.total).toBe(4);
  expect(limited.requests).toHaveLength(1);
  expect(limited.requests[0]?.keyId).toBe('unknown');
  // The create's body is kept, as sent.
  expect(fake.control.requests({ method: 'POST' }).requests[0]).toMatchObject({
    body: '{"name":"Nemo","categoryId":3}',
    bodyBytes: 30,
    bodyTruncated: false,
  });
});

test('a bad filter throws a ControlInputError naming the valid values, and changes nothing', async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets`, { headers: free });
  const refusal = (filter: object) => {
    try {
      fake.control.requests(filter);
    } catch (error) {
      expect(error).toBeInstanceOf(ControlInputError);
      return (error as ControlInputError).message;
    }
    throw new Error('not refused');
  };
  expect(refusal({ method: 'FETCH' })).toContain('GET, HEAD, POST, PUT, PATCH, DELETE');
  expect(refusal({ operationId: 'deletePet' })).toContain('listPets, createPet, getPet, none');
  expect(refusal({ status: 99 })).toContain('from 100 to 599 or a class 1xx to 5xx');
  expect(refusal({ since: 'yesterday' })).toContain('epoch milliseconds or an ISO date');
  expect(refusal({ limit: 0 })).toContain('limit must be a whole number from 1');
  expect(refusal({ path: 'pets' })).toContain('starting with /');
  expect(refusal({ verb: 'GET' })).toContain('the filters are method, operationId, path');
  expect(fake.control.requests().total).toBe(1);
});

test('clearRequests() and a control reset empty the journal', async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets`, { headers: free });
  fake.control.clearRequests();
  expect(fake.control.requests()).toMatchObject({ total: 0, requests: [], dropped: 0 });
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.control.reset();
  expect(fake.control.requests().total).toBe(0);
});

test('msw in Node feeds the same journal as fake.fetch', async () => {
  const fake = await createFake();
  server = setupServer(...fake.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  await fetch(`${api}/pets?status=sold`, { headers: free });
  await fake.fetch(`${api}/pets`, { headers: free });
  expect(fake.control.requests({ path: '/v1/pets' }).requests.map((e) => e.query)).toEqual([
    '',
    '?status=sold',
  ]);
});

test('expectRequests passes on the count and returns the matches', async () => {
  const fake = await frozenFake();
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.fetch(`${api}/pets`, { headers: free });
  expect(expectRequests(fake, { operationId: 'listPets' }, 2)).toHaveLength(2);
  expect(expectRequests(fake, { operationId: 'listPets' }, { atLeast: 1 })).toHaveLength(2);
  expect(expectRequests(fake, { method: 'POST' }, { atMost: 0 })).toHaveLength(0);
  expect(expectRequests(fake, { status: 200 }, { atLeast: 2, atMost: 3 })).toHaveLength(2);
});

test('"exactly one POST after the 429": a failure lists the near misses and the field that differs', async () => {
  const fake = await frozenFake();
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.fetch(`${api}/pets`, { headers: free }); // 429
  const after429 = fake.control.requests({ status: 429 }).requests[0]?.atMs as number;
  fake.control.advanceTime(1);
  // The app retried too early, and with a GET: neither is the POST the test waits for.
  await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Nemo', categoryId: 3 }),
  });
  await fake.fetch(`${api}/pets`, { headers: free });
  let failure: RequestCountError | undefined;
  try {
    expectRequests(fake, { method: 'POST', status: 201, since: after429 }, 1);
  } catch (error) {
    failure = error as RequestCountError;
  }
  expect(failure).toBeInstanceOf(RequestCountError);
  expect(failure?.matched).toEqual([]);
  // The POST got 429 too (the window is spent): all but `status` match.
  expect(failure?.nearMisses.map((miss) => miss.differs)).toEqual(['status is 429, not 201']);
  expect(failure?.message).toContain(
    'expected exactly 1 request matching method=POST status=201 since=',
  );
  expect(failure?.message).toContain('but 0 came (of 4 in the journal)');
  // Printed as a runner prints a failure (util.inspect): the message lists the near miss once;
  // the entries behind `matched` and `nearMisses` are not dumped again below it.
  const printed = inspect(failure);
  expect(printed.match(/status is 429, not 201/g)).toHaveLength(1);
  expect(printed).not.toMatch(/nearMisses|matched:|bodyTruncated/);
  expect(failure?.message).toMatch(
    /Near misses \(all but one field match\):\n {2}#3 2026-06-01T12:00:01.000Z POST \/v1\/pets 429 rate_limited key=demo-free client=checkout-web: status is 429, not 201/,
  );
  // Too many is a failure too, listing what matched.
  expect(() => expectRequests(fake, { method: 'GET' }, { atMost: 1 })).toThrow(
    /expected at most 1 request matching method=GET, but 3 came[\s\S]*Matched:\n {2}#4/,
  );
  // Misuse is said at once.
  expect(() => expectRequests(fake, { method: 'GET' }, -1)).toThrow(/count must be a whole number/);
  expect(() => expectRequests(fake, { method: 'GET', limit: 1 }, 1)).toThrow(/leave limit out/);
  expect(() => expectRequests(fake, { method: 'BREW' }, 1)).toThrow(ControlInputError);
});

test('afterSeq picks the requests after one, on a frozen clock where since cannot tell them apart', async () => {
  const fake = await frozenFake();
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.fetch(`${api}/pets`, { headers: free }); // 429
  const refusal = fake.control.requests({ status: 429 }).requests[0];
  await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Nemo', categoryId: 3 }),
  });
  // Every request arrived at one frozen time: `since` the 429 counts the 429 itself too.
  expect(fake.control.requests({ since: refusal?.atMs as number }).total).toBe(3);
  const after = fake.control.requests({ afterSeq: refusal?.seq as number });
  expect(after.requests.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 429']);
  expectRequests(fake, { method: 'POST', afterSeq: refusal?.seq as number }, 1);
  expect(() => fake.control.requests({ afterSeq: -1 })).toThrow(
    "afterSeq must be a request's seq, a whole number from 0",
  );
});
