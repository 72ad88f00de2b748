/**
 * What the fake says in Retry-After, over the HTTP door as a client reads it: a forced answer can
 * ask for no wait (`Retry-After: 0`) or none at all (a 503 without the header) so a client's own
 * backoff shows; every value rounds up, never before the moment the client is let in again; an
 * HTTP-date is written on real time, consistent with the `Date` header, whatever the fake's
 * virtual clock shows (interface, Limits rule 2 and 5: the client retries after the time
 * `Retry-After` indicates; the format is the fake's choice).
 */
import { afterEach, expect, test } from 'vitest';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { listenHttp } from '../../doors/http/http-server.ts';

const headers = { Authorization: 'Bearer free-demo-key', 'Content-Type': 'application/json' };
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A fake behind its HTTP door on a free port; `base` is its origin. */
async function served(fake: FakeWithCore): Promise<string> {
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  return `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
}

async function force(base: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${base}/__control/force`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function listPets(base: string): Promise<Response> {
  const res = await fetch(`${base}/v1/pets?limit=1`, { headers });
  await res.body?.cancel();
  return res;
}

test('a forced 429 or 503 with retryAfterSeconds 0 says Retry-After: 0, in both formats', async () => {
  const base = await served(await createFake());
  for (const status of [429, 503]) {
    expect(
      (await force(base, { operationId: 'listPets', status, retryAfterSeconds: 0 })).status,
    ).toBe(200);
    const res = await listPets(base);
    expect(res.status).toBe(status);
    expect(res.headers.get('Retry-After')).toBe('0');
  }
  const dated = await served(await createFake({ retryAfterFormat: 'http-date' }));
  await force(dated, { operationId: 'listPets', status: 503, retryAfterSeconds: 0 });
  const before = Date.now();
  const res = await listPets(dated);
  const at = Date.parse(res.headers.get('Retry-After') ?? '');
  // Now, rounded up to the whole second: never before the answer, at most a second after it.
  expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  expect(at).toBeLessThanOrEqual(Date.now() + 1000);
});

test('a forced 503 with retryAfterSeconds null sends no Retry-After; a 429 must send one', async () => {
  const base = await served(await createFake());
  const forced = await force(base, {
    operationId: 'listPets',
    status: 503,
    retryAfterSeconds: null,
  });
  expect(forced.status).toBe(200);
  expect(await forced.json()).toMatchObject({ status: 503, retryAfterSeconds: null });
  const res = await listPets(base);
  expect(res.status).toBe(503);
  expect(res.headers.has('Retry-After')).toBe(false);
  const refused = await force(base, {
    operationId: 'listPets',
    status: 429,
    retryAfterSeconds: null,
  });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toBe(
    'retryAfterSeconds must be an integer from 0 to 86400, got null',
  );
});

test('in-process, fake.control.force takes 0 and null too', async () => {
  const fake = await createFake();
  fake.control.force('listPets', 503, 1, null);
  const res = await fake.fetch('http://127.0.0.1:4010/v1/pets', { headers });
  expect(res.status).toBe(503);
  expect(res.headers.has('Retry-After')).toBe(false);
  fake.control.force('listPets', 429, 1, 0);
  const zero = await fake.fetch('http://127.0.0.1:4010/v1/pets', { headers });
  expect(zero.headers.get('Retry-After')).toBe('0');
});

test('on a shifted, ticking clock an HTTP-date Retry-After agrees with the Date header and real time', async () => {
  const fake = await createFake({ retryAfterFormat: 'http-date' });
  const base = await served(fake);
  // Six months behind real time, still ticking: a date in the past beside today's Date header.
  fake.control.setTime(Date.now() - 180 * 86_400_000);
  await force(base, { operationId: 'listPets', status: 503, retryAfterSeconds: 2 });
  const sent = Date.now();
  const res = await listPets(base);
  const retryAt = Date.parse(res.headers.get('Retry-After') ?? '');
  const date = Date.parse(res.headers.get('Date') ?? '');
  expect(retryAt - date).toBeGreaterThanOrEqual(2000);
  expect(retryAt - date).toBeLessThanOrEqual(4000);
  expect(retryAt).toBeGreaterThanOrEqual(sent + 2000);
});

test("a ban's Retry-After rounds up: never before the ban ends, in both formats", async () => {
  for (const retryAfterFormat of ['http-date', 'seconds'] as const) {
    const fake = await createFake({
      retryAfterFormat,
      ban: { threshold: 1, durationSeconds: 300 },
    });
    fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
    // One minute for the three requests: a minute ending between them would make the third a
    // plain rate-limit 429 or a 200, not the ban's start.
    fake.control.freezeTime(true);
    const base = await served(fake);
    expect((await listPets(base)).status).toBe(200);
    await listPets(base); // 429: the minute is spent
    const sent = Date.now();
    const banned = await listPets(base); // early: the ban starts
    expect(banned.status).toBe(429);
    const value = banned.headers.get('Retry-After') ?? '';
    // The ban ends 300 s after the request arrived, at or after `sent`, on real time.
    const retryAt =
      retryAfterFormat === 'seconds' ? Date.now() + Number(value) * 1000 : Date.parse(value);
    expect(retryAt).toBeGreaterThanOrEqual(sent + 300_000);
    const key = fake.control.keys().find((k) => k.id === 'demo-free');
    const bannedUntil = Date.parse(key?.bannedUntil ?? '');
    expect(retryAt).toBeGreaterThanOrEqual(bannedUntil);
  }
});
