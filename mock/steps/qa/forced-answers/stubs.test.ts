/**
 * Whole answers stubbed at runtime, through the doors a QA engineer and a
 * test author use: `POST /__control/force` with an answer over the HTTP door, and
 * `fake.control.force({...})` in process. A stub answers the requests it matches (operation, and
 * optionally key id, client id, query) with exactly what it says, spends no quota, is marked in
 * the client report and coverage, never reaches the Pact file, and the answer to setting it names
 * the interface rules it breaks (interface: Limits, Errors, Endpoints).
 */
import { request as httpRequest } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import type { ExchangeRecord } from '../../../pipeline/config/config.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function served(): Promise<{ fake: Fake; base: string; port: number }> {
  const fake = await createFake();
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  const { port } = door.server.address() as { port: number };
  return { fake, base: `http://127.0.0.1:${port}`, port };
}

const free = { Authorization: 'Bearer free-demo-key' };
const pro = { Authorization: 'Bearer pro-demo-key' };

async function control(base: string, method: string, path: string, body?: unknown) {
  const answer = await fetch(`${base}/__control/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
}

test('over HTTP: a malformed 200 without X-RateLimit-Remaining for one key, twice; the answer to setting it names the rules it breaks', async () => {
  const { fake, base } = await served();
  // Counted windows on a pinned clock: no minute rolls over between the requests.
  fake.control.freezeTime(true);
  const set = await control(base, 'POST', 'force', {
    operationId: 'listPets',
    keyId: 'demo-free',
    count: 2,
    answer: {
      status: 200,
      rawBody: '{"pets": [',
      removeHeaders: ['X-RateLimit-Remaining'],
      headers: { 'X-Stubbed-By': 'qa' },
    },
  });
  expect(set.status).toBe(200);
  expect(set.json).toMatchObject({ id: 'stub-1', operationId: 'listPets', remaining: 2 });
  // The interface: "Rate limit headers (present on every response)"; "Request and response
  // bodies are JSON".
  expect(set.json.breaks).toEqual([
    'a 200 without X-RateLimit-Remaining breaks Limits: rate limit headers present on every response',
    'a body that is not JSON breaks What the service does: response bodies are JSON (application/json)',
  ]);
  const before = (await fetch(`${base}/v1/pets?limit=1`, { headers: pro })).headers;
  for (let i = 0; i < 2; i++) {
    const stubbed = await fetch(`${base}/v1/pets?limit=1`, { headers: free });
    expect(stubbed.status).toBe(200);
    expect(await stubbed.text()).toBe('{"pets": [');
    expect(stubbed.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(stubbed.headers.get('x-ratelimit-limit')).toBe('60');
    expect(stubbed.headers.get('x-stubbed-by')).toBe('qa');
  }
  // Another key is not matched; after two answers the stub is spent.
  const other = await fetch(`${base}/v1/pets?limit=1`, { headers: pro });
  expect(other.status).toBe(200);
  expect(Number(other.headers.get('x-ratelimit-remaining'))).toBe(
    Number(before.get('x-ratelimit-remaining')) - 1,
  );
  const after = await fetch(`${base}/v1/pets?limit=1`, { headers: free });
  expect(await after.json()).toHaveLength(1);
  // Stubbed answers spent no quota: the free key's first counted request leaves 59.
  expect(after.headers.get('x-ratelimit-remaining')).toBe('59');
  expect((await control(base, 'GET', 'stubs')).json).toEqual([]);
});

test('over HTTP: an empty 200 for one client until cleared, a query-matched 503, and DELETE /__control/force clears them', async () => {
  const { base } = await served();
  await control(base, 'POST', 'force', {
    operationId: 'listPets',
    clientId: 'checkout-app',
    answer: { status: 200 },
  });
  const set = await control(base, 'POST', 'force', {
    operationId: 'listPets',
    query: { status: 'sold' },
    count: 1,
    answer: {
      status: 503,
      body: { code: 'service_unavailable', message: 'Down for QA.', status: 503 },
    },
  });
  // A 503 is not listed for listPets (Endpoints, Errors): the stub says so.
  expect(set.json.breaks).toEqual([
    'a 503 is no status of listPets (Endpoints and Errors: it answers 200, 401, 429)',
  ]);
  const client = { ...free, 'X-Client-Id': 'checkout-app' };
  for (let i = 0; i < 3; i++) {
    const empty = await fetch(`${base}/v1/pets?limit=1`, { headers: client });
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');
    expect(empty.headers.get('content-type')).toBeNull();
  }
  const sold = await fetch(`${base}/v1/pets?status=sold`, { headers: free });
  expect(sold.status).toBe(503);
  expect(await sold.json()).toEqual({
    code: 'service_unavailable',
    message: 'Down for QA.',
    status: 503,
  });
  expect((await fetch(`${base}/v1/pets?status=sold`, { headers: free })).status).toBe(200);
  expect((await control(base, 'GET', 'stubs')).json).toMatchObject([
    { clientId: 'checkout-app', remaining: null },
  ]);
  expect((await control(base, 'DELETE', 'force')).status).toBe(200);
  const normal = await fetch(`${base}/v1/pets?limit=1`, { headers: client });
  expect(await normal.json()).toHaveLength(1);
});

test('over HTTP: a dropped connection closes the socket without an answer; a delayed one waits on a frozen clock by moving it', async () => {
  const { fake, base, port } = await served();
  await control(base, 'POST', 'force', {
    operationId: 'getPet',
    count: 1,
    answer: { drop: true },
  });
  const dropped = await new Promise<string>((resolve) => {
    const sent = httpRequest({ port, path: '/v1/pets/1', headers: free }, (answer) =>
      resolve(`answered ${answer.statusCode}`),
    );
    sent.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    sent.end();
  });
  expect(dropped).toBe('ECONNRESET');
  // In process, fake.fetch fails as fetch does when a server closes without answering.
  fake.control.force({ operationId: 'getPet', count: 1, answer: { drop: true } });
  await expect(fake.fetch('http://127.0.0.1:4010/v1/pets/1', { headers: free })).rejects.toThrow(
    TypeError,
  );

  // A delay is chaos latency's: on a frozen clock the clock moves, nothing waits.
  fake.control.freezeTime(true);
  const start = fake.control.now();
  await control(base, 'POST', 'force', {
    operationId: 'getPet',
    count: 1,
    answer: { status: 200, body: { id: 1, name: 'Slow', categoryId: 1 }, delayMs: 45_000 },
  });
  const began = performance.now();
  const slow = await fetch(`${base}/v1/pets/1`, { headers: free });
  expect(await slow.json()).toEqual({ id: 1, name: 'Slow', categoryId: 1 });
  expect(performance.now() - began).toBeLessThan(5000);
  expect(fake.control.now() - start).toBe(45_000);
  // On a ticking clock it is held back for real.
  fake.control.realTime();
  fake.control.force({
    operationId: 'getPet',
    count: 1,
    answer: { status: 200, body: { id: 1, name: 'Slow', categoryId: 1 }, delayMs: 300 },
  });
  const ticking = performance.now();
  await (await fake.fetch('http://127.0.0.1:4010/v1/pets/1', { headers: free })).text();
  expect(performance.now() - ticking).toBeGreaterThanOrEqual(290);
});

test('over HTTP: every bad stub is a 400 naming the field and its valid values, and nothing is kept', async () => {
  const { base } = await served();
  const cases: readonly (readonly [unknown, string])[] = [
    [
      { operationId: 'deletePet', answer: { status: 200 } },
      'operationId must be one of: listPets, createPet, getPet',
    ],
    [
      { operationId: 'listPets', answer: { status: 99 } },
      'answer.status must be an integer from 200 to 599',
    ],
    [{ operationId: 'listPets', answer: {} }, 'answer.status must be an integer from 200 to 599'],
    [{ operationId: 'listPets', answer: 'oops' }, 'answer must be an object with status'],
    [{ operationId: 'listPets', answer: { status: 200, body: 1, rawBody: 'x' } }, 'not both'],
    [
      { operationId: 'listPets', answer: { status: 200, rawBody: 7 } },
      'answer.rawBody must be a string',
    ],
    [
      { operationId: 'listPets', answer: { status: 204, body: [] } },
      'answer.status 204 has no body',
    ],
    [
      { operationId: 'listPets', answer: { status: 200, delayMs: 60_001 } },
      'answer.delayMs must be an integer from 0 to 60000',
    ],
    [
      { operationId: 'listPets', answer: { status: 200, drop: 'yes' } },
      'answer.drop must be true or false',
    ],
    [
      { operationId: 'listPets', answer: { drop: true, status: 200 } },
      'answer.drop sends no answer, so it takes no status',
    ],
    [
      { operationId: 'listPets', answer: { status: 200, headers: { 'Bad Name': 'x' } } },
      'is not a header name',
    ],
    [
      {
        operationId: 'listPets',
        answer: { status: 200, headers: { 'X-A': 'a\r\nSet-Cookie: b' } },
      },
      'without CR, LF or NUL',
    ],
    [
      { operationId: 'listPets', answer: { status: 200, headers: { 'Content-Length': '5' } } },
      "is the door's own (message framing)",
    ],
    [
      { operationId: 'listPets', answer: { status: 200, removeHeaders: 'X-RateLimit-Limit' } },
      'answer.removeHeaders must be a list',
    ],
    [
      { operationId: 'listPets', answer: { status: 200, colour: 'red' } },
      'answer: unknown field(s) "colour"',
    ],
    [
      { operationId: 'listPets', keyId: 'no spaces', answer: { status: 200 } },
      "keyId must be a key's id",
    ],
    [
      { operationId: 'listPets', clientId: '', answer: { status: 200 } },
      'clientId must be a string of 1 to 200 characters',
    ],
    [
      { operationId: 'listPets', query: { status: 1 }, answer: { status: 200 } },
      'query must be an object',
    ],
    [
      { operationId: 'listPets', count: 0, answer: { status: 200 } },
      'count must be an integer from 1 to 1000000, or null',
    ],
    [
      { operationId: 'listPets', status: 503, answer: { status: 200 } },
      'unknown field(s) "status"',
    ],
    [
      { operationId: 'listPets', status: 503, keyId: 'demo-free' },
      'keyId match a stub: send them with answer',
    ],
  ];
  for (const [body, named] of cases) {
    const refused = await control(base, 'POST', 'force', body);
    expect(refused.status, JSON.stringify(body)).toBe(400);
    expect(refused.json).toMatchObject({ code: 'invalid_control_request', status: 400 });
    expect(refused.json.message, JSON.stringify(body)).toContain(named);
  }
  expect((await control(base, 'GET', 'stubs')).json).toEqual([]);
  expect((await control(base, 'GET', 'force')).json).toEqual({});
});

test('in process: force takes a whole answer or its positional form; the stubbed answer is marked in the request log, the client report and coverage, and never recorded in the Pact file', async () => {
  const logged: ExchangeRecord[] = [];
  const fake = await createFake({ onExchange: (record) => logged.push(record) });
  const stub = fake.control.force({
    operationId: 'createPet',
    clientId: 'web-app',
    count: 1,
    answer: {
      status: 429,
      body: { code: 'rate_limited', message: 'Slow down.', status: 429 },
      headers: { 'Retry-After': '7' },
    },
  });
  // A 429 with Retry-After and an Error body breaks nothing the interface says.
  expect(stub.breaks).toEqual([]);
  const positional = fake.control.force('getPet', 503, 1, null);
  expect(positional).toEqual({ status: 503, remaining: 1, retryAfterSeconds: null });
  const json = { ...free, 'Content-Type': 'application/json', 'X-Client-Id': 'web-app' };
  const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
  const limited = await fake.fetch('http://127.0.0.1:4010/v1/pets', {
    method: 'POST',
    headers: json,
    body,
  });
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('7');
  const created = await fake.fetch('http://127.0.0.1:4010/v1/pets', {
    method: 'POST',
    headers: json,
    body,
  });
  expect(created.status).toBe(201);
  const client = fake.control.clients().clients.find((c) => c.clientId === 'web-app');
  expect(client).toMatchObject({ stubbedAnswers: 1, chaosAnswers: 0 });
  expect(client?.recent.map((r) => [r.status, r.stubbed])).toEqual([
    [201, false],
    [429, true],
  ]);
  const coverage = fake.control.coverage();
  expect(coverage.summary).toMatchObject({ exchanges: 2, stubbed: 1 });
  // The stubbed 429 exercised no item: only the real 201 counts.
  expect(coverage.items.find((item) => item.id === 'createPet 429')?.status).toBe('not-exercised');
  expect(coverage.items.find((item) => item.id === 'createPet 201')?.count).toBe(1);
  const pact = fake.control.pact({ consumer: 'web-app', provider: 'petstore' });
  expect(pact.interactions.map((each) => each.response.status)).toEqual([201]);
  expect(logged.map((record) => [record.status, record.injected])).toEqual([
    [429, 'stubbed'],
    [201, undefined],
  ]);
});
