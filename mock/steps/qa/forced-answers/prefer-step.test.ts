/**
 * Prism's `Prefer: code=<status>`, through the HTTP door as curl sends it and
 * through `npm start --no-prefer`. Prism's grammar and behaviour, which the fake follows where it
 * has a meaning: @stoplight/prism-http-server dist/getHttpConfigFromRequest.js (RFC 7240
 * preferences, `code` three digits) and @stoplight/prism-http NegotiatorHelpers.js (a code the
 * document does not define: 404 "Requested status code ... is not defined in the document").
 */
import { afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../../test/support/fake-process.ts';
import { type CreateFakeOptions, createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await stopFakeProcesses();
});

async function served(options: CreateFakeOptions = {}): Promise<{ fake: Fake; base: string }> {
  const fake = await createFake(options);
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  return { fake, base: `http://127.0.0.1:${(door.server.address() as { port: number }).port}/v1` };
}

const key = { Authorization: 'Bearer free-demo-key' };

test("Prefer: code=429 gets the 429 the rate limit gives: Retry-After to the window reset, the caller's X-RateLimit-* with none remaining; no quota spent", async () => {
  const { fake, base } = await served();
  fake.control.freezeTime(true);
  const first = await fetch(`${base}/pets?limit=1`, { headers: key });
  expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
  const forced = await fetch(`${base}/pets?limit=1`, { headers: { ...key, Prefer: 'code=429' } });
  expect(forced.status).toBe(429);
  expect(await forced.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  expect(forced.headers.get('x-ratelimit-limit')).toBe('60');
  expect(forced.headers.get('x-ratelimit-remaining')).toBe('0');
  const reset = Number(forced.headers.get('x-ratelimit-reset'));
  expect(reset).toBe(Number(first.headers.get('x-ratelimit-reset')));
  // Retry-After: the seconds to that reset, as the rate limit says it (Errors: 429 + Retry-After).
  expect(Number(forced.headers.get('retry-after'))).toBe(
    Math.max(1, Math.ceil((reset * 1000 - fake.control.now()) / 1000)),
  );
  // Spent nothing, changed nothing: the next request counts as the second.
  const next = await fetch(`${base}/pets?limit=1`, { headers: key });
  expect(next.headers.get('x-ratelimit-remaining')).toBe('58');
  expect(fake.control.keys().find((k) => k.id === 'demo-free')?.usage.violations).toBe(0);
});

test('Prefer: code=404, 401, 503 and 400 come as the fake gives them; a create forced to fail stores nothing', async () => {
  const { fake, base } = await served();
  const missing = await fetch(`${base}/pets/1`, { headers: { ...key, Prefer: 'code=404' } });
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({ code: 'not_found', status: 404 });
  const refused = await fetch(`${base}/pets`, { headers: { ...key, Prefer: 'code=401' } });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
  const down = await fetch(`${base}/pets`, { headers: { ...key, Prefer: 'code=503' } });
  expect(down.status).toBe(503);
  expect(down.headers.get('retry-after')).toBe('1');
  const count = fake.control.describe().pets as number;
  const created = await fetch(`${base}/pets`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'application/json', Prefer: 'code=400' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(400);
  expect(await created.json()).toMatchObject({ code: 'invalid_body', status: 400 });
  expect(fake.control.describe().pets).toBe(count);
  // Forced answers are the fake's own use of the header: never recorded as the provider's.
  const pact = fake.control.pact({ consumer: 'app', provider: 'petstore' });
  expect(pact.interactions).toEqual([]);
});

test('a success status the operation answers runs the request as usual; example= and dynamic= are ignored; names are any case', async () => {
  const { fake, base } = await served();
  const count = fake.control.describe().pets as number;
  const created = await fetch(`${base}/pets`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'application/json', Prefer: 'CODE=201, example=rex' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  expect(fake.control.describe().pets).toBe(count + 1);
  const listed = await fetch(`${base}/pets?limit=2`, {
    headers: { ...key, Prefer: 'dynamic=true' },
  });
  expect(await listed.json()).toHaveLength(2);
  // The header runs after authentication: without a key, any code gets the usual 401.
  const anonymous = await fetch(`${base}/pets`, { headers: { Prefer: 'code=200' } });
  expect(anonymous.status).toBe(401);
});

test('a code the operation cannot give is a 400 naming the statuses it can give (Prism: 404), spending no quota', async () => {
  const { base } = await served();
  for (const [path, prefer] of [
    ['/pets', 'code=404'],
    ['/pets', 'code=418'],
    ['/pets', 'code=abc'],
    ['/pets/1', 'code=201'],
  ] as const) {
    const answer = await fetch(`${base}${path}`, { headers: { ...key, Prefer: prefer } });
    expect(answer.status, prefer).toBe(400);
    const body = (await answer.json()) as { code: string; message: string };
    expect(body.code).toBe('bad_request');
    expect(body.message).toContain(`Prefer: ${prefer} is no status`);
    expect(body.message).toMatch(/it gives 200, 400, 401, (404, )?429, 500, 502, 503, 504/);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('60');
  }
});

test('the CORS preflight lets a local page send Prefer', async () => {
  const { base } = await served();
  const preflight = await fetch(`${base}/pets`, {
    method: 'OPTIONS',
    headers: {
      Origin: 'http://localhost:5173',
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'authorization, prefer',
    },
  });
  expect(preflight.status).toBe(204);
  const allowed = (preflight.headers.get('access-control-allow-headers') ?? '')
    .toLowerCase()
    .split(/,\s*/);
  expect(allowed).toEqual(expect.arrayContaining(['authorization', 'prefer']));
});

test('prefer: false, and npm start --no-prefer, ignore the header as the real service does', async () => {
  const { base } = await served({ prefer: false });
  const ignored = await fetch(`${base}/pets?limit=1`, { headers: { ...key, Prefer: 'code=429' } });
  expect(ignored.status).toBe(200);
  await expect(createFake({ prefer: 'no' as never })).rejects.toThrow(
    /prefer must be true or false/,
  );
  const port = await freePort();
  await startFakeProcess(['--port', String(port), '--no-staging', '--no-prefer']);
  const viaCli = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
    headers: { ...key, Prefer: 'code=503' },
  });
  expect(viaCli.status).toBe(200);
  const port2 = await freePort();
  await startFakeProcess(['--port', String(port2), '--no-staging']);
  const honoured = await fetch(`http://127.0.0.1:${port2}/v1/pets?limit=1`, {
    headers: { ...key, Prefer: 'code=503' },
  });
  expect(honoured.status).toBe(503);
});
