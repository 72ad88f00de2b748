/**
 * Seeded chaos through the doors a user has: the same seed gives the same answers (per operation
 * and key, whatever else runs), chaos answers are ordinary interface answers, latency counts on
 * the fake's clock (a frozen clock moves, fake timers never stall it), dropped connections fail
 * as a network failure in every door, and bad settings change nothing. Seeds are pinned.
 */
import { setupServer } from 'msw/node';
import supertest from 'supertest';
import { afterEach, expect, test, vi } from 'vitest';
import { ConfigError } from '../../../base/config-error.ts';
import { createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import type { ChaosSettings } from './chaos-settings.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };
const pro = { Authorization: 'Bearer pro-demo-key' };
const start = Date.UTC(2026, 5, 1, 12);
// Taken before any test fakes timers (vitest's fake timers replace performance too).
const realNow = performance.now.bind(performance);

afterEach(() => {
  vi.useRealTimers();
});

/** A fake with `chaos`, its clock frozen at `start`, its keys' limits out of the way. */
async function chaoticFake(chaos: ChaosSettings): Promise<Fake> {
  const fake = await createFake({ chaos, enterpriseLimits: { perMinute: 10_000, perDay: 1e6 } });
  fake.control.freezeTime(true);
  fake.control.setTime(start);
  for (const id of ['demo-free', 'demo-pro'])
    fake.control.updateKey(id, { limits: { perMinute: 100_000, perDay: 1_000_000 } });
  return fake;
}

/** Status and fake-clock latency of `n` listPets calls. */
async function run(fake: Fake, n: number, headers = free): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < n; i++) {
    const before = fake.control.now();
    const res = await fake.fetch(`${api}/pets?limit=1`, { headers });
    await res.body?.cancel();
    seen.push(`${res.status}+${fake.control.now() - before}`);
  }
  return seen;
}

const mixed: ChaosSettings = {
  seed: 42,
  rules: [
    {
      operationId: 'listPets',
      errors: { '429': 0.1, '500': 0.1, '502': 0.05, '503': 0.1, '504': 0.05 },
      latency: { distribution: 'exponential', meanMs: 200, maxMs: 2000 },
    },
  ],
};

test('the same seed gives the same answers and latencies; another seed does not', async () => {
  const a = await run(await chaoticFake(mixed), 300);
  const b = await run(await chaoticFake(mixed), 300);
  const c = await run(await chaoticFake({ ...mixed, seed: 43 }), 300);
  expect(b).toEqual(a);
  expect(c).not.toEqual(a);
  // The shares hold roughly: 40% errors in all (300 draws: well within 25% to 55%).
  const errors = a.filter((s) => !s.startsWith('200')).length;
  expect(errors).toBeGreaterThan(75);
  expect(errors).toBeLessThan(165);
  for (const status of ['429', '500', '502', '503', '504'])
    expect(a.some((s) => s.startsWith(status))).toBe(true);
});

test("a key's chaos does not depend on other keys' traffic in between", async () => {
  const alone = await run(await chaoticFake(mixed), 50);
  const fake = await chaoticFake(mixed);
  const interleaved: string[] = [];
  for (let i = 0; i < 50; i++) {
    interleaved.push(...(await run(fake, 1)));
    await run(fake, 2, pro);
  }
  expect(interleaved).toEqual(alone);
});

test('rules apply per operation and key, the first match wins', async () => {
  const fake = await chaoticFake({
    seed: 1,
    rules: [
      { operationId: 'listPets', keyId: 'demo-pro', errors: { '503': 1 } },
      { operationId: 'getPet', errors: { '504': 1 } },
    ],
  });
  expect((await run(fake, 3, pro)).map((s) => s.slice(0, 3))).toEqual(['503', '503', '503']);
  expect((await run(fake, 3, free)).map((s) => s.slice(0, 3))).toEqual(['200', '200', '200']);
  const got = await fake.fetch(`${api}/pets/1`, { headers: free });
  expect(got.status).toBe(504);
});

test('chaos answers are interface answers: Error body, X-RateLimit-*, Retry-After on 429 and 503, no quota spent, logged, reported', async () => {
  const log: { status: number; errorCode?: string }[] = [];
  const fake = await createFake({
    chaos: { seed: 5, rules: [{ errors: { '429': 0.5, '503': 0.5 }, retryAfterSeconds: 7 }] },
    onExchange: (record) => log.push(record),
  });
  fake.control.freezeTime(true);
  fake.control.setTime(start);
  for (let i = 0; i < 6; i++) {
    const res = await fake.fetch(`${api}/pets?limit=1`, {
      headers: { ...free, 'X-Client-Id': 'qa' },
    });
    const body = (await res.json()) as { code: string; message: string; status: number };
    expect([429, 503]).toContain(res.status);
    expect(body.status).toBe(res.status);
    expect(body.code).toBe(res.status === 429 ? 'rate_limited' : 'service_unavailable');
    expect(body.message).toContain('(chaos, seed 5)');
    expect(res.headers.get('Retry-After')).toBe('7');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('60');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(res.status === 429 ? '0' : '60');
    fake.control.advanceTime(7);
  }
  expect(fake.control.keys().find((k) => k.id === 'demo-free')?.usage.minute).toBe(0);
  expect(log.map((r) => r.errorCode)).toEqual(
    log.map((r) => (r.status === 429 ? 'rate_limited' : 'service_unavailable')),
  );
  const [client] = fake.control.clients().clients;
  expect(client).toMatchObject({ clientId: 'qa', chaosAnswers: 6, requests: 6 });
  expect(client?.rules.retryAfter.verdict).toBe('pass');
});

test('latency on a frozen clock moves the clock, not real time', async () => {
  const fake = await chaoticFake({
    seed: 9,
    rules: [{ latency: { distribution: 'uniform', minMs: 5000, maxMs: 20_000 } }],
  });
  const began = performance.now();
  const seen = await run(fake, 20);
  expect(performance.now() - began).toBeLessThan(2000); // 20 answers of 5 to 20 s each
  const latencies = seen.map((s) => Number(s.split('+')[1]));
  for (const ms of latencies) {
    expect(ms).toBeGreaterThanOrEqual(5000);
    expect(ms).toBeLessThanOrEqual(20_000);
  }
  expect(fake.control.now() - start).toBe(latencies.reduce((a, b) => a + b, 0));
  // The report measures the same latency on the fake's clock.
  expect(fake.control.clients().recent[0]?.latencyMs).toBe(latencies.at(-1));
});

test("latency on a ticking clock is a real wait that test frameworks' fake timers cannot stall", async () => {
  const fake = await createFake({
    chaos: { seed: 3, rules: [{ latency: { distribution: 'uniform', minMs: 40, maxMs: 40 } }] },
  });
  fake.control.advanceTime(3600); // an advanced, ticking clock
  vi.useFakeTimers();
  const began = realNow();
  const res = await fake.fetch(`${api}/pets?limit=1`, { headers: free });
  expect(res.status).toBe(200);
  expect(realNow() - began).toBeGreaterThanOrEqual(35);
});

test('a dropped connection: the HTTP door closes the socket, fake.fetch and msw fail the fetch', async () => {
  const chaos: ChaosSettings = { seed: 11, rules: [{ operationId: 'listPets', drop: 1 }] };
  const fake = await createFake({ chaos });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  try {
    const port = (door.server.address() as { port: number }).port;
    const overHttp = await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: free }).then(
      () => 'answered',
      (error: Error) => String((error.cause as { code?: string })?.code),
    );
    expect(overHttp).toBe('UND_ERR_SOCKET');
    // Other operations and the control surface still answer on that server.
    const pet = await fetch(`http://127.0.0.1:${port}/v1/pets/1`, { headers: free });
    expect(pet.status).toBe(200);
  } finally {
    await door.close();
  }
  await expect(fake.fetch(`${api}/pets`, { headers: free })).rejects.toThrow(
    /fetch failed: the fake dropped the connection \(chaos\)/,
  );
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  try {
    await expect(fetch(`${api}/pets`, { headers: free })).rejects.toThrow(TypeError);
  } finally {
    server.close();
  }
  // Each door's drop is in the report, as the client saw it: a failure with no answer.
  const drops = fake.control.clients().clients.map((c) => c.failures.dropped ?? 0);
  expect(drops.reduce((a, b) => a + b, 0)).toBe(3);
  expect(fake.control.clients().recent.filter((r) => r.dropped && r.status === 0)).toHaveLength(3);
});

test('a drop stays a drop when a profile renames error codes', async () => {
  const fake = await createFake({
    chaos: { seed: 1, rules: [{ drop: 1 }] },
    errorCodes: { service_unavailable: 'UNAVAILABLE' },
  });
  await expect(fake.fetch(`${api}/pets`, { headers: free })).rejects.toThrow(TypeError);
});

test('chaos over the control surface: set, read, refused whole when wrong, off, and back to the start on reset', async () => {
  const initial: ChaosSettings = { seed: 1, rules: [{ errors: { '500': 0.5 } }] };
  const fake = await createFake({ chaos: initial });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  try {
    const http = supertest(`http://127.0.0.1:${(door.server.address() as { port: number }).port}`);
    const json = { 'Content-Type': 'application/json' };
    expect((await http.get('/__control/chaos').expect(200)).body).toEqual(initial);
    const next = { seed: 2, rules: [{ keyId: 'demo-pro', drop: 0.25, errors: { '502': 0.25 } }] };
    expect((await http.post('/__control/chaos').set(json).send(next).expect(200)).body).toEqual(
      next,
    );
    const refused = await http
      .post('/__control/chaos')
      .set(json)
      .send({ seed: 3, rules: [{ errors: { '503': 0.7 }, drop: 0.5 }] })
      .expect(400);
    expect(refused.body).toEqual({
      code: 'invalid_control_request',
      message: 'chaos.rules[0]: the error and drop shares add up to 1.2, more than 1',
      status: 400,
    });
    const unknown = await http
      .post('/__control/chaos')
      .set(json)
      .send({ seed: 3, rules: [{ latency: { distribution: 'normal' } }] })
      .expect(400);
    expect(unknown.body.message).toBe(
      'chaos.rules[0].latency.distribution must be "uniform" or "exponential"',
    );
    expect((await http.get('/__control/chaos')).body).toEqual(next); // unchanged
    expect((await http.get('/__control/state')).body.chaos).toEqual(next);
    await http.delete('/__control/chaos').set(json).expect(200);
    expect((await http.get('/__control/chaos')).body).toBeNull();
    await http.post('/__control/reset').set(json).expect(200);
    expect((await http.get('/__control/chaos')).body).toEqual(initial);
  } finally {
    await door.close();
  }
});

test('createFake refuses bad chaos with a ConfigError naming the field', async () => {
  const bad = { seed: 1.5, rules: [] } as unknown as ChaosSettings;
  const error = await createFake({ chaos: bad }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect(error).toMatchObject({ option: 'chaos', problem: 'seed must be an integer, got 1.5' });
});
