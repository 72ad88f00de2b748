/**
 * The README's QA recipe, step for step over HTTP: 429 → Retry-After → ban → recovery, in well
 * under a second of real time, driven only through the control surface a QA engineer uses.
 */
import request from 'supertest';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../../doors/http/http-server.ts';
import { expectRequests } from '../journal/expect-requests.ts';

let door: HttpDoor;
let api: ReturnType<typeof request>;
let fake: FakeWithCore;

beforeAll(async () => {
  fake = await createFake();
  door = await listenHttp(fake.behaviour, { port: 0, origin: fake.config.origins[0] as string });
  api = request(`http://127.0.0.1:${(door.server.address() as { port: number }).port}`);
});
afterAll(() => door.close());

const key = { Authorization: 'Bearer free-demo-key' };
// State-changing control requests must be JSON (so no CORS-simple request can make one).
const control = (method: 'get' | 'post' | 'patch', path: string, body?: object) => {
  const call = api[method](`/__control/${path}`);
  if (method !== 'get') call.set('Content-Type', 'application/json');
  return body === undefined ? call : call.send(body);
};

test('QA recipe: 429, Retry-After, ban and recovery without waiting a real minute', async () => {
  // 1. Start clean, freeze the clock at the start of a minute, give the Free key 3 requests a minute.
  await control('post', 'reset').expect(200);
  await control('post', 'clock', { set: '2026-06-01T12:00:00Z', freeze: true }).expect(200);
  const key3 = await control('patch', 'keys/demo-free', {
    limits: { perMinute: 3, perDay: 1000 },
  }).expect(200);
  expect(key3.body).toMatchObject({ id: 'demo-free', limits: { perMinute: 3 } });
  expect(JSON.stringify(key3.body)).not.toContain('free-demo-key');

  // 2. Three requests pass, the fourth gets 429 with Retry-After: 60.
  for (const remaining of ['2', '1', '0']) {
    const ok = await api.get('/v1/pets?limit=1').set(key).expect(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe(remaining);
  }
  const limited = await api.get('/v1/pets?limit=1').set(key).expect(429);
  expect(limited.body.code).toBe('rate_limited');
  expect(limited.headers['retry-after']).toBe('60');

  // 3. Ignoring Retry-After five more times bans the key for 300 s.
  const ignored = [];
  for (let i = 0; i < 5; i++) ignored.push((await api.get('/v1/pets?limit=1').set(key)).body.code);
  expect(ignored).toEqual([
    'rate_limited',
    'rate_limited',
    'rate_limited',
    'rate_limited',
    'temporarily_banned',
  ]);

  // 4. The ban outlasts the minute window.
  await control('post', 'clock', { advance: 60 }).expect(200);
  const banned = await api.get('/v1/pets?limit=1').set(key).expect(429);
  expect(banned.body.code).toBe('temporarily_banned');
  expect(Number(banned.headers['retry-after'])).toBe(240);
  const state = await control('get', 'keys').expect(200);
  expect(state.body.find((k: { id: string }) => k.id === 'demo-free').bannedUntil).toBe(
    '2026-06-01T12:05:00.000Z',
  );

  // 5. After the ban, the key works again with a fresh window.
  await control('post', 'clock', { advance: 240 }).expect(200);
  const recovered = await api.get('/v1/pets?limit=1').set(key).expect(200);
  expect(recovered.headers['x-ratelimit-remaining']).toBe('2');

  // 6. Answers with no dictated wait: a 503 without Retry-After, so a client's own backoff shows.
  await control('post', 'force', {
    operationId: 'listPets',
    status: 503,
    count: 3,
    retryAfterSeconds: null,
  }).expect(200);
  const own = await api.get('/v1/pets?limit=1').set(key).expect(503);
  expect(own.headers['retry-after']).toBeUndefined();

  // 7. The journal: the last three statuses, newest first.
  const journal = await control('get', 'requests?limit=3').expect(200);
  expect(journal.body.requests.map((entry: { status: number }) => entry.status)).toEqual([
    503, 200, 429,
  ]);
  expect((await control('get', 'requests?status=429').expect(200)).body.total).toBe(7);
  // And what a test asks it: exactly one 200 once the ban was over, then the forced 503.
  expectRequests(fake, { status: 200, since: '2026-06-01T12:05:00Z' }, 1);
  const [forced] = expectRequests(fake, { since: '2026-06-01T12:05:00Z', status: 503 }, 1);
  // A forced answer spends no quota: the window still has the 2 the 200 left.
  expect(forced).toMatchObject({ forced: true, headers: { 'X-RateLimit-Remaining': '2' } });

  // 8. A whole answer stubbed for the key: a malformed body without X-RateLimit-Remaining, which
  // setting it says breaks the interface (Limits: rate limit headers on every response).
  const stub = await control('post', 'force', {
    operationId: 'listPets',
    keyId: 'demo-free',
    count: 1,
    answer: { status: 200, rawBody: '{"pets": [', removeHeaders: ['X-RateLimit-Remaining'] },
  }).expect(200);
  expect(stub.body.breaks).toContain(
    'a 200 without X-RateLimit-Remaining breaks Limits: rate limit headers present on every response',
  );
  const stubbed = await api
    .get('/v1/pets?limit=1')
    .set(key)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done(null, text));
    });
  expect(stubbed.status).toBe(200);
  expect(stubbed.body).toBe('{"pets": [');
  expect(stubbed.headers['x-ratelimit-remaining']).toBeUndefined();

  // 9. Prism's Prefer: code=429: the 429 the rate limit gives, spending nothing.
  const preferred = await api
    .get('/v1/pets?limit=1')
    .set({ ...key, Prefer: 'code=429' })
    .expect(429);
  expect(preferred.headers['retry-after']).toBe('60');
  expect(preferred.headers['x-ratelimit-remaining']).toBe('0');
  const after = await api.get('/v1/pets?limit=1').set(key);
  // The forced 503s left come back: the stub and Prefer took their turn from none of them, and
  // no quota went on any of them (2 left since the one request after the ban).
  expect(after.status).toBe(503);
  expect(after.headers['x-ratelimit-remaining']).toBe('2');

  // 10. The journal, as the recipe's last curl shows it: the stub and Prefer's answers are there,
  // marked, the stub with the rule it breaks.
  const last = await control('get', 'requests?limit=4').expect(200);
  expect(last.body.requests.map((entry: { status: number }) => entry.status)).toEqual([
    503, 429, 200, 503,
  ]);
  expect(last.body.requests[1]).toMatchObject({ forced: true, stubbed: false });
  expect(last.body.requests[2]).toMatchObject({ stubbed: true, forced: false });
  expect(last.body.requests[2].breaks).toContain(
    'a 200 without X-RateLimit-Remaining breaks Limits: rate limit headers present on every response',
  );
});

test('control requests with bad input get a 400 Error that says what to send', async () => {
  const bad = await control('post', 'force', { operationId: 'deletePet', status: 429 }).expect(400);
  expect(bad.body).toEqual({
    code: 'invalid_control_request',
    message: expect.stringContaining('listPets, createPet, getPet'),
    status: 400,
  });
  await control('patch', 'keys/demo-free', { plan: 'gold' }).expect(400);
  await control('post', 'clock', { set: 'yesterday-ish' }).expect(400);
  const unknown = await control('get', 'nope').expect(404);
  expect(unknown.body.message).toContain('known:');
});

test('snapshot and restore round-trip the store, and a bad snapshot changes nothing', async () => {
  await control('post', 'reset').expect(200);
  await api
    .post('/v1/pets')
    .set({ ...key, 'Content-Type': 'application/json' })
    .send({ name: 'Kept', categoryId: 1 })
    .expect(201);
  const snapshot = (await control('get', 'snapshot').expect(200)).body;
  expect(snapshot.pets).toHaveLength(181);
  const bad = await control('post', 'restore', { pets: [{ id: 1, name: 'x' }], nextId: 2 }).expect(
    400,
  );
  expect(bad.body.message).toContain('categoryId is required');
  expect((await control('get', 'state')).body.pets).toBe(181); // a refused restore loses nothing
  await control('post', 'reset', { seed: 'empty' }).expect(200);
  await api.get('/v1/pets/181').set(key).expect(404);
  await control('post', 'restore', snapshot).expect(200);
  const kept = await api.get('/v1/pets/181').set(key).expect(200);
  expect(kept.body.name).toBe('Kept');
});
