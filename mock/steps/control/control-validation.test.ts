/**
 * "Validate everything, then change": over the real HTTP door, every control request is checked
 * whole before anything changes, no input (path, percent-encoding, number) gets a 5xx, numbers past
 * the safe range are refused naming the bound, and secrets are unique across key ids.
 * The property at the end sends generated control requests; seed pinned, `FUZZ_SEED=n` explores.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../../doors/http/http-server.ts';

let fake: FakeWithCore;
let door: HttpDoor;
let base: string;

beforeAll(async () => {
  fake = await createFake({ stagingOrigin: false });
  door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
});
afterAll(() => door.close());

const pinned = Date.UTC(2026, 5, 1, 12);
beforeEach(async () => {
  await fake.control.reset();
  // Freeze first: a running clock set to `pinned` has moved on by the time it is frozen.
  fake.control.freezeTime(true);
  fake.control.setTime(pinned);
});

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/__control/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const auth = { Authorization: 'Bearer free-demo-key' };
const createPet = (name: string) =>
  fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });

/** Everything a control request could change, with the clock's reading. */
function fingerprint() {
  return JSON.stringify({
    state: fake.control.describe(),
    snapshot: fake.control.snapshot(),
  });
}

test('a clock move past the clock range is refused with the bound and moves nothing', async () => {
  const before = fingerprint();
  for (const body of [
    { advance: 1e300 },
    { advance: -1e300 },
    { set: 8.64e15 },
    { set: -1 },
    { set: '+275760-09-13T00:00:00.000Z' },
    { set: '2026-06-01T12:00:00Z', advance: 1e17 },
    { advance: 1, freeze: 'yes' },
  ]) {
    const answer = await control('POST', 'clock', body);
    expect(answer.status, JSON.stringify(body)).toBe(400);
    expect(answer.body.code).toBe('invalid_control_request');
  }
  const far = await control('POST', 'clock', { advance: 1e300 });
  expect(far.body.message).toContain('9999-12-31T23:59:59.999Z');
  expect(fingerprint()).toBe(before);
  const list = await fetch(`${base}/v1/pets?limit=1`, { headers: auth });
  expect(list.headers.get('x-ratelimit-reset')).toBe(String(pinned / 1000 + 60));
  expect((await control('GET', 'clock')).status).toBe(200);
});

test('the clock refuses unknown fields, and {"real": true} returns it to real, ticking time', async () => {
  const unknown = await control('POST', 'clock', { foo: 1 });
  expect(unknown.status).toBe(400);
  expect(unknown.body.message).toContain('foo');
  expect(fake.control.now()).toBe(pinned);

  const real = await control('POST', 'clock', { real: true });
  expect(real.status).toBe(200);
  expect(real.body.frozen).toBe(false);
  expect(Math.abs((real.body.epochMs as number) - Date.now())).toBeLessThan(5_000);
  const first = fake.control.now();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(fake.control.now()).toBeGreaterThan(first);
});

test('a key id that is not valid percent-encoding gets 404, never a 5xx', async () => {
  for (const path of ['keys/%E0%A4%A', 'keys/%', 'keys/%zz', 'keys/%C0%AF', 'keys/a/b', 'keys/']) {
    const answer = await control('PATCH', path, { plan: 'pro' });
    expect(answer.status, path).toBe(404);
    expect(answer.body.code).toBe('control_not_found');
  }
});

test('nextId and pet ids past 2^53 - 1 are refused naming the bound; at the bound, creates run out with 507, never 500', async () => {
  const past = await control('POST', 'restore', { pets: [], nextId: 9007199254740992 });
  expect(past.status).toBe(400);
  expect(past.body.message).toContain('9007199254740991');
  const bigId = await control(
    'POST',
    'restore',
    '{"pets":[{"id":9007199254740993,"name":"x","categoryId":1}],"nextId":1}',
  );
  expect(bigId.status).toBe(400);
  expect(bigId.body.message).toContain('9007199254740991');
  expect(fake.control.describe().pets).toBe(180);

  expect((await control('POST', 'restore', { pets: [], nextId: 9007199254740991 })).status).toBe(
    200,
  );
  const last = await createPet('last');
  expect(last.status).toBe(201);
  expect(await last.json()).toMatchObject({ id: 9007199254740991 });
  for (let i = 0; i < 3; i++) {
    const none = await createPet('none');
    expect(none.status).toBe(507);
    expect(await none.json()).toMatchObject({ code: 'store_full', status: 507 });
  }
});

test('a second key id with a secret already in use is refused with 409, and nothing is added', async () => {
  const taken = await control('POST', 'keys', {
    id: 'copycat',
    key: 'free-demo-key',
    plan: 'enterprise',
  });
  expect(taken.status).toBe(409);
  expect(taken.body.code).toBe('control_conflict');
  expect(JSON.stringify(taken.body)).not.toContain('free-demo-key');
  const sameId = await control('POST', 'keys', {
    id: 'demo-free',
    key: 'brand-new-key-123',
    plan: 'pro',
  });
  expect(sameId.status).toBe(409);
  expect(fake.control.keys().map((key) => key.id)).not.toContain('copycat');
  // A key the Bearer header cannot carry is refused too, with the rule.
  const spaced = await control('POST', 'keys', { id: 'odd', key: 'has "quotes"!', plan: 'pro' });
  expect(spaced.status).toBe(400);
  expect(spaced.body.message).toContain('Bearer');
});

test('a key change with one bad field changes none of it', async () => {
  const before = fingerprint();
  const answer = await control('PATCH', 'keys/demo-free', {
    plan: 'enterprise',
    limits: { perMinute: 0, perDay: 10 },
  });
  expect(answer.status).toBe(400);
  expect(answer.body.message).toContain('perMinute');
  expect(fingerprint()).toBe(before);
  const force = await control('POST', 'force', {
    operationId: 'listPets',
    status: 503,
    count: 1,
    retryAfterSeconds: -1,
  });
  expect(force.status).toBe(400);
  expect(fingerprint()).toBe(before);
});

const controlPaths = fc.oneof(
  fc.constantFrom(
    'state',
    'reset',
    'clock',
    'keys',
    'keys/demo-free',
    'keys/demo-pro',
    'snapshot',
    'restore',
    'force',
    '',
    'keys/%E0%A4%A',
  ),
  fc.string({ unit: 'binary', maxLength: 20 }).map((text) => `keys/${encodeURIComponent(text)}`),
  fc.stringMatching(/^[a-z%0-9/]{0,20}$/),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e300, -1e300, 9007199254740992, 2 ** 63, 0, -0, 1, 60, 503, 1_000_001),
);
const value = fc.oneof(
  number,
  fc.string({ maxLength: 12 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('default', 'empty', 'pro', 'enterprise', 'listPets', '2026-01-01T00:00:00Z'),
);
const field = fc.constantFrom(
  'set',
  'advance',
  'freeze',
  'real',
  'seed',
  'id',
  'key',
  'plan',
  'limits',
  'pets',
  'nextId',
  'operationId',
  'status',
  'count',
  'retryAfterSeconds',
  'foo',
  '__proto__',
);
const body = fc.oneof(
  fc.dictionary(
    field,
    fc.oneof(value, fc.record({ perMinute: number, perDay: number }), fc.array(value)),
  ),
  fc.constantFrom('', '{', '[]', 'null', '123', '{"a":1e400}'),
);

test('generated control requests never get a 5xx, and a refused one changes nothing', async () => {
  const seed = Number(process.env.FUZZ_SEED ?? 20261123);
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
      controlPaths,
      body,
      async (method, path, payload) => {
        await fake.control.reset();
        fake.control.freezeTime(true);
        fake.control.setTime(pinned);
        const before = fingerprint();
        const response = await fetch(`${base}/__control/${path}`, {
          method,
          headers: { 'Content-Type': 'application/json' },
          ...(method === 'GET' ? {} : { body: JSON.stringify(payload) }),
        });
        const answer = (await response.json()) as { code?: string; status?: number };
        expect(response.status, `${method} /${path}`).toBeLessThan(500);
        if (response.status !== 200) {
          expect(answer).toMatchObject({ status: response.status });
          expect(typeof answer.code).toBe('string');
          expect(fingerprint(), `${method} /${path} ${JSON.stringify(payload)}`).toBe(before);
        }
      },
    ),
    { numRuns: 300, seed },
  );
  // The fake still works afterwards.
  await fake.control.reset();
  expect((await createPet('after')).status).toBe(201);
});
