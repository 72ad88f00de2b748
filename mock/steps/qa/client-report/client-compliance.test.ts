/**
 * Proof with real clients (Limits, rule 2): a well-behaved client (honours Retry-After, backs off
 * exponentially with jitter), a naive retry loop that ignores Retry-After, a client that retries
 * at a fixed interval, and ky's built-in retry each drive the fake and get the verdict they
 * deserve, from `fake.control.clients()`, from `GET /__control/clients` and from
 * `expectClientCompliance`.
 *
 * Every test pins the fake's clock: the hand-written clients sleep by advancing the fake's frozen
 * clock; ky sleeps with setTimeout, so its test runs under vitest's fake timers and the fake's
 * clock reads their Date. One test runs ky over HTTP on the real clock, as QA would.
 */
import { Agent, request as httpRequest } from 'node:http';
import got from 'got';
import ky from 'ky';
import { afterEach, expect, test, vi } from 'vitest';
import { createClock } from '../../../base/clock/clock.ts';
import { createFake, type FakeWithCore } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import { seededRandom } from '../injected-failures/seeded-random.ts';
import { expectClientCompliance } from './expect-client-compliance.ts';

const api = 'http://127.0.0.1:4010/v1';
const start = Date.UTC(2026, 5, 1, 12);
const jitterSeed = 20261123;

afterEach(() => {
  vi.useRealTimers();
});

/** A fake on a frozen clock at `start`, its Free key limited to `perMinute`. */
async function frozenFake(perMinute = 60): Promise<FakeWithCore> {
  const fake = await createFake();
  fake.control.freezeTime(true);
  fake.control.setTime(start);
  fake.control.updateKey('demo-free', { limits: { perMinute, perDay: 1000 } });
  return fake;
}

type Sleep = (ms: number) => Promise<void>;
/** Sleeping on the fake's frozen clock: the clock moves, no real time passes. */
const virtualSleep =
  (fake: FakeWithCore): Sleep =>
  async (ms) =>
    fake.control.advanceTime(ms / 1000);

const retryable = new Set([429, 500, 502, 503, 504]);

/** Seconds a Retry-After asks for (delta-seconds or HTTP-date), or undefined. */
function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  return Math.max(0, Date.parse(value) - now);
}

/** A client as the rule wants it: waits max(Retry-After, 500 ms x 2^n plus 0-20% jitter). */
async function politeGet(fake: FakeWithCore, clientId: string, sleep: Sleep): Promise<number> {
  const random = seededRandom(jitterSeed, clientId);
  for (let attempt = 0; ; attempt++) {
    const res = await fake.fetch(`${api}/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': clientId },
    });
    await res.body?.cancel();
    if (!retryable.has(res.status) || attempt === 8) return res.status;
    const told = retryAfterMs(res.headers.get('Retry-After'), fake.control.now()) ?? 0;
    const backoff = 500 * 2 ** attempt * (1 + 0.2 * random());
    await sleep(Math.max(told, backoff));
  }
}

/** The loop everyone writes once: try again at once until it works (at most `tries`). */
async function naiveGet(fake: FakeWithCore, clientId: string, tries: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < tries && status !== 200; i++) {
    const res = await fake.fetch(`${api}/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': clientId },
    });
    await res.body?.cancel();
    status = res.status;
  }
  return status;
}

/** Retries every 2 s, whatever it is told: never early for a 1 s Retry-After, never backing off. */
async function fixedGet(fake: FakeWithCore, clientId: string, sleep: Sleep): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const res = await fake.fetch(`${api}/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': clientId },
    });
    await res.body?.cancel();
    if (!retryable.has(res.status) || attempt === 8) return res.status;
    await sleep(2000);
  }
}

function clientOf(fake: FakeWithCore, clientId: string) {
  const client = fake.control.clients().clients.find((c) => c.clientId === clientId);
  if (client === undefined) throw new Error(`no report for ${clientId}`);
  return client;
}

test('a well-behaved client passes every rule: Retry-After honoured, waits growing, no ban', async () => {
  const fake = await frozenFake(3);
  const sleep = virtualSleep(fake);
  // Four 503s without Retry-After (its own backoff shows), then the rate limit's 429 saying 60.
  fake.control.force('listPets', 503, 4, null);
  expect(await politeGet(fake, 'polite', sleep)).toBe(200);
  for (let i = 0; i < 4; i++) expect(await politeGet(fake, 'polite', sleep)).toBe(200);

  const client = clientOf(fake, 'polite');
  expect(client.failures).toEqual({ '429': 1, '503': 4 });
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(client.rules.backoff).toMatchObject({ verdict: 'pass', ownWaits: 4 });
  expect(client.rules.ban).toMatchObject({ verdict: 'pass', bans: 0, refusals: 1 });
  expect(client.verdict).toBe('pass');
  expect(expectClientCompliance(fake, { clientId: 'polite' })).toHaveLength(1);
});

test('a naive retry loop that ignores Retry-After fails all three rules, with a readable message', async ({
  onTestFinished,
}) => {
  // Its retries come back to back; the report reads a wait as the longer of the fake's clock and
  // real time, so real time stands still too, or a busy machine's few ms between two calls would
  // change which retries the reason cites.
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  const fake = await frozenFake(2);
  expect(await naiveGet(fake, 'naive', 1)).toBe(200);
  expect(await naiveGet(fake, 'naive', 1)).toBe(200);
  // The minute is spent and the clock does not move: every try is early, the 6th starts a ban.
  expect(await naiveGet(fake, 'naive', 8)).toBe(429);

  const client = clientOf(fake, 'naive');
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'fail', earlyRequests: 7 });
  // The last ones, during the ban: 300 s early on the frozen clock, a few ms less on real time.
  expect(client.rules.retryAfter.maxEarlyMs).toBeGreaterThan(299_000);
  expect(client.rules.backoff.verdict).toBe('fail');
  expect(client.rules.ban).toMatchObject({ verdict: 'fail', bans: 1, violations: 5 });
  expect(client.verdict).toBe('fail');
  expect(() => expectClientCompliance(fake, { keyId: 'demo-free', clientId: 'naive' })).toThrow(
    new RegExp(
      [
        "^petstore-fake: the client broke the interface's rule for retries \\(Limits, rule 2: retry after Retry-After, with exponential backoff\\) or resent a create it could not know had failed:",
        'client "naive" on key demo-free:',
        '  - Retry-After: 7 request\\(s\\) came before Retry-After elapsed \\(the earliest 300 s early\\)',
        '  - backoff: no backoff: the first 3 retries waited \\d+ ms in all \\(.*\\), under the floor of 6 ms that exponential backoff with full jitter from 50 ms falls under 1 time in 20,000',
        '  - ban: earned 1 temporary ban\\(s\\) by retrying too early \\(5 of its request\\(s\\) refused before a Retry-After it was given elapsed\\)$',
      ].join('\n'),
    ),
  );
});

test('a client with fixed retries honours Retry-After but fails backoff', async () => {
  const fake = await frozenFake();
  // Retry-After: 1 and a client that waits 2 s: longer than asked, so the waits are its own.
  fake.control.force('listPets', 503, 4, 1);
  expect(await fixedGet(fake, 'fixed', virtualSleep(fake))).toBe(200);

  const client = clientOf(fake, 'fixed');
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'pass', answersWithRetryAfter: 4 });
  expect(client.rules.backoff).toMatchObject({ verdict: 'fail', ownWaits: 4 });
  // Forced answers never lead to a ban: nothing to judge there.
  expect(client.rules.ban.verdict).toBe('not-applicable');
  expect(() => expectClientCompliance(fake, { clientId: 'fixed' })).toThrow(
    'backoff: a fixed interval, not exponential: 4 of 4 waits within 1.2x of each other (2 s, 2 s, 2 s, 2 s)',
  );
  // Held to Retry-After alone, the same client passes.
  expect(() =>
    expectClientCompliance(fake, { clientId: 'fixed', rules: ['retryAfter', 'ban'] }),
  ).not.toThrow();
});

test("ky's built-in retry honours Retry-After and backs off exponentially (fake timers)", async () => {
  // The fake's clock reads Date, which vitest fakes below: ky's setTimeout waits move it.
  const fake = await createFake({ clock: createClock(() => Date.now()) });
  fake.control.updateKey('demo-free', { limits: { perMinute: 2, perDay: 1000 } });
  vi.useFakeTimers({ now: start, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const client = ky.create({
    fetch: fake.fetch,
    headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'ky' },
    retry: { limit: 5 },
  });
  const get = async () => {
    const pending = client.get(`${api}/pets?limit=1`).json();
    await vi.runAllTimersAsync();
    return pending;
  };
  // 1. Two 503s with Retry-After: 1: ky waits exactly what it is told.
  fake.control.force('listPets', 503, 2, 1);
  await get();
  // 2. Three 500s without Retry-After: ky's own backoff, 0.3 s, 0.6 s, 1.2 s.
  fake.control.force('listPets', 500, 3);
  await get();
  // 3. The minute's quota is spent (2 requests): a 429 with Retry-After up to the next minute.
  await get();

  const report = clientOf(fake, 'ky');
  expect(report.failures).toEqual({ '429': 1, '500': 3, '503': 2 });
  expect(report.rules.backoff.waits.map((w) => [w.afterStatus, w.waitMs, w.own])).toEqual([
    [503, 1000, false],
    [503, 1000, false],
    [500, 300, true],
    [500, 600, true],
    [500, 1200, true],
    [429, 56_000, false],
  ]);
  expect(report.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(report.rules.backoff).toMatchObject({
    verdict: 'pass',
    chains: { pass: 1, fail: 0, inconclusive: 0 },
  });
  expect(report.verdict).toBe('pass');
  expectClientCompliance(fake, { clientId: 'ky' });
});

test('over HTTP on the real clock: ky passes and a naive loop fails, read from GET /__control/clients', async () => {
  const fake = await createFake();
  const origin = fake.config.origins[0] as string;
  const door = await listenHttp(fake.behaviour, { port: 0, origin });
  try {
    const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
    const headers = { Authorization: 'Bearer free-demo-key' };
    // ky: a 429 saying 1 s, then three 500s (0.3, 0.6, 1.2 s of its own): about 3 s of real time.
    fake.control.force('listPets', 429, 1, 1);
    const kyClient = ky.create({
      headers: { ...headers, 'X-Client-Id': 'ky' },
      retry: { limit: 3 },
    });
    await kyClient.get(`${base}/v1/pets?limit=1`).json();
    fake.control.force('listPets', 500, 3);
    await kyClient.get(`${base}/v1/pets?limit=1`).json();
    // The naive loop, against the same kind of 429.
    fake.control.force('listPets', 429, 1, 1);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/v1/pets?limit=1`, {
        headers: { ...headers, 'X-Client-Id': 'naive' },
      });
      await res.body?.cancel();
    }
    const res = await fetch(`${base}/__control/clients`);
    const report = (await res.json()) as ReturnType<FakeWithCore['control']['clients']>;
    const verdicts = Object.fromEntries(
      report.clients.map((c) => [c.clientId, [c.verdict, c.rules.retryAfter.verdict]]),
    );
    expect(verdicts).toEqual({ ky: ['pass', 'pass'], naive: ['fail', 'fail'] });
    const ky500s = report.clients.find((c) => c.clientId === 'ky')?.rules.backoff;
    expect(ky500s?.verdict).toBe('pass');
  } finally {
    await door.close();
  }
});

test('the report never holds a key: sent in the query, the path or as the client id, it is redacted', async () => {
  const fake = await frozenFake();
  for (const [path, clientId] of [
    ['/pets?api_key=free-demo-key', 'app'],
    ['/pets/free-demo-key', 'app'],
    ['/pets?limit=1', 'my free-demo-key app'],
  ]) {
    const res = await fake.fetch(`${api}${path}`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': clientId as string },
    });
    await res.body?.cancel();
  }
  const report = fake.control.clients();
  expect(JSON.stringify(report)).not.toContain('free-demo-key');
  expect(report.clients.map((c) => c.clientId).sort()).toEqual(['[redacted]', 'app']);
  expect(report.recent.map((r) => r.path)).toEqual([
    '/v1/pets?limit=1',
    '/v1/pets/[redacted]',
    '/v1/pets?api_key=[redacted]',
  ]);
});

test('a ban is charged to the client whose early requests earned it, not to a polite one on the same key', async () => {
  const fake = await frozenFake(2);
  const sleep = virtualSleep(fake);
  expect(await politeGet(fake, 'polite', sleep)).toBe(200);
  expect(await naiveGet(fake, 'naive', 1)).toBe(200);
  // The minute is spent: the naive loop hammers into a ban; the polite client, told to wait,
  // waits (the clock moves) and then waits out the ban it is told about.
  expect(await naiveGet(fake, 'naive', 8)).toBe(429);
  expect(await politeGet(fake, 'polite', sleep)).toBe(200);

  const naive = clientOf(fake, 'naive');
  const polite = clientOf(fake, 'polite');
  expect(naive.rules.ban).toMatchObject({ verdict: 'fail', bans: 1 });
  // It met the ban (a temporarily_banned answer) but no rate-limit refusal of its own.
  expect(polite.failures).toMatchObject({ '429': 1 });
  expect(polite.rules.ban).toMatchObject({ verdict: 'not-applicable', bans: 0, violations: 0 });
  expect(polite.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(polite.problems).toEqual([]);
  expect(polite.verdict).toBe('pass');
});

test('two got copies under one X-Client-Id, each with its own connections and each waiting its Retry-After, are inconclusive, never failed; declared one copy per id, they fail (HTTP)', async () => {
  for (const declared of [false, true]) {
    const fake = await createFake();
    const origin = fake.config.origins[0] as string;
    const door = await listenHttp(fake.behaviour, { port: 0, origin });
    try {
      const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
      fake.control.force('listPets', 429, 4, 1);
      // Two copies of one app, as two processes would be: each its own pool of connections.
      const copy = () =>
        got(`${base}/v1/pets?limit=1`, {
          agent: { http: new Agent({ keepAlive: true }) },
          headers: {
            Authorization: 'Bearer free-demo-key',
            'X-Client-Id': 'shop',
            ...(declared ? { 'X-Client-Copies': '1' } : {}),
          },
          retry: { limit: 3 },
        }).json();
      const first = copy();
      await new Promise((resolve) => setTimeout(resolve, 400));
      await Promise.all([first, copy()]);
      const [shop] = fake.control.clients().clients;
      if (declared) {
        expect(shop?.rules.retryAfter).toMatchObject({ verdict: 'fail', ambiguousEarly: 0 });
        expect(shop?.oneCopy).toBe(true);
        continue;
      }
      expect(shop?.rules.retryAfter).toMatchObject({ verdict: 'inconclusive', earlyRequests: 0 });
      expect(shop?.rules.retryAfter.ambiguousEarly).toBeGreaterThan(0);
      expect(shop?.connections).toBeGreaterThanOrEqual(2);
      expect(shop?.verdict).toBe('inconclusive');
      expect(() => expectClientCompliance(fake, { clientId: 'shop' })).toThrow(
        /^petstore-fake: the evidence does not settle the rule for retries[\s\S]*a second copy of the app, or this one on a second socket[\s\S]*X-Client-Copies: 1/,
      );
      expect(
        expectClientCompliance(fake, { clientId: 'shop', requireEvidence: false }),
      ).toHaveLength(1);
    } finally {
      await door.close();
    }
  }
});

test("on the QA recipe's frozen clock and on a shifted ticking one, ky and got that really wait pass (HTTP, both formats)", async () => {
  const cases = [
    { client: 'ky', format: 'seconds', clock: 'frozen' },
    { client: 'got', format: 'http-date', clock: 'frozen' },
    { client: 'ky', format: 'http-date', clock: 'shifted' },
    { client: 'got', format: 'http-date', clock: 'shifted' },
  ] as const;
  await Promise.all(
    cases.map(async ({ client, format, clock }) => {
      const fake = await createFake({ retryAfterFormat: format });
      const door = await listenHttp(fake.behaviour, {
        port: 0,
        origin: fake.config.origins[0] as string,
      });
      try {
        const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
        // The QA recipe's two clocks: frozen at `start`, or six months behind, ticking.
        if (clock === 'frozen') {
          fake.control.freezeTime(true);
          fake.control.setTime(start);
        } else fake.control.setTime(Date.now() - 180 * 86_400_000);
        fake.control.force('listPets', 503, 2, 1);
        const url = `${base}/v1/pets?limit=1`;
        const headers = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': client };
        if (client === 'ky') await ky.get(url, { headers, retry: { limit: 3 } }).json();
        else await got(url, { headers, retry: { limit: 3 } }).json();
        const report = fake.control.clients();
        const [judged] = report.clients;
        expect(report.clock.mode).toBe(clock);
        expect(judged?.rules.retryAfter, `${client} ${format} ${clock}`).toMatchObject({
          verdict: 'pass',
          earlyRequests: 0,
          judgedRequests: 2,
        });
        // Really waited about a second each, on real time, whatever the fake's clock did.
        for (const wait of judged?.rules.backoff.waits ?? []) {
          expect(wait.realWaitMs).toBeGreaterThanOrEqual(990);
          expect(wait.clock).toBe('real');
        }
        expect(judged?.verdict).toBe('pass');
      } finally {
        await door.close();
      }
    }),
  );
}, 30_000);

/** One request as a client sends it, through one door: its status and what Retry-After said. */
type Send = (method: string, path: string, body?: string) => Promise<number>;

/** Through the HTTP door, on one kept-alive socket. */
function httpSend(base: string): Send {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, {
        method,
        agent,
        headers: {
          ...sendHeaders,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** Through a worker tab: what the browser door hands the core, with the tab as its connection. */
function tabSend(fake: FakeWithCore, tab: string): Send {
  return async (method, path, body) => {
    const headers = new Headers({
      ...sendHeaders,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    });
    const bytes = new TextEncoder().encode(body ?? '');
    const answer = await fake.behaviour.answer({
      method,
      url: `${api.slice(0, -3)}${path}`,
      connection: tab,
      header: (name) => headers.get(name),
      headerList: () => [...headers],
      body: () => bytes,
    });
    return answer.status;
  };
}

const sendHeaders = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'app' };

/** The same traffic, whichever door carries it: the client sleeps by advancing the frozen clock. */
const traffic: Record<string, (send: Send, fake: FakeWithCore) => Promise<void>> = {
  // ofetch's `retryDelay: 500`: every 0.5 s under Retry-After: 1.
  'every 0.5 s under Retry-After: 1': async (send, fake) => {
    fake.control.force('listPets', 503, 3, 1);
    while ((await send('GET', '/v1/pets?limit=1')) === 503) fake.control.advanceTime(0.5);
  },
  // As the rule wants: max(Retry-After, 0.2 s x 2^n).
  'max(Retry-After, 0.2 s x 2^n)': async (send, fake) => {
    fake.control.force('listPets', 503, 3, 1);
    fake.control.force('listPets', 503, 2, 1);
    for (let n = 0; (await send('GET', '/v1/pets?limit=1')) === 503; n++)
      fake.control.advanceTime(Math.max(1, 0.2 * 2 ** n));
    fake.control.force('listPets', 500, 3);
    for (let n = 0; (await send('GET', '/v1/pets?limit=1')) === 500; n++)
      fake.control.advanceTime(0.2 * 2 ** n);
  },
  // A create resent after 503s, 0.3 s apart.
  'a create resent after 503s': async (send, fake) => {
    fake.control.force('createPet', 503, 2, null);
    const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
    while ((await send('POST', '/v1/pets', pet)) === 503) fake.control.advanceTime(0.3);
  },
};

test('the same traffic gets the same verdicts over HTTP, fake.fetch and a worker tab', async () => {
  const seen: Record<string, Record<string, unknown>> = {};
  for (const [name, drive] of Object.entries(traffic)) {
    for (const door of ['http', 'fake.fetch', 'tab'] as const) {
      const fake = await frozenFake();
      const http =
        door === 'http'
          ? await listenHttp(fake.behaviour, { port: 0, origin: fake.config.origins[0] as string })
          : undefined;
      try {
        const send =
          http !== undefined
            ? httpSend(`http://127.0.0.1:${(http.server.address() as { port: number }).port}`)
            : door === 'tab'
              ? tabSend(fake, 'tab:7f3a')
              : async (method: string, path: string, body?: string) => {
                  const res = await fake.fetch(`${api.slice(0, -3)}${path}`, {
                    method,
                    headers: {
                      ...sendHeaders,
                      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
                    },
                    ...(body === undefined ? {} : { body }),
                  });
                  await res.body?.cancel();
                  return res.status;
                };
        await drive(send, fake);
        const client = clientOf(fake, 'app');
        seen[`${name} (${door})`] = {
          verdict: client.verdict,
          ...Object.fromEntries(Object.entries(client.rules).map(([rule, r]) => [rule, r.verdict])),
        };
      } finally {
        await http?.close();
      }
    }
  }
  expect(seen).toEqual(
    Object.fromEntries(
      Object.keys(traffic).flatMap((name) => {
        const expected = {
          'every 0.5 s under Retry-After: 1': {
            verdict: 'fail',
            retryAfter: 'fail',
            backoff: 'inconclusive',
            ban: 'not-applicable',
            resentCreates: 'not-applicable',
          },
          'max(Retry-After, 0.2 s x 2^n)': {
            verdict: 'pass',
            retryAfter: 'pass',
            backoff: 'pass',
            ban: 'not-applicable',
            resentCreates: 'not-applicable',
          },
          'a create resent after 503s': {
            verdict: 'fail',
            retryAfter: 'not-applicable',
            backoff: 'inconclusive',
            ban: 'not-applicable',
            resentCreates: 'fail',
          },
        }[name];
        return ['http', 'fake.fetch', 'tab'].map((door) => [`${name} (${door})`, expected]);
      }),
    ),
  );
});

test("the issue's shared key: a polite client whose first request met the key's Retry-After is never failed on ban for another client's hammering", async () => {
  const fake = await frozenFake(2);
  const get = async (clientId: string) => {
    const res = await fake.fetch(`${api}/pets?limit=1`, {
      headers: { Authorization: 'Bearer free-demo-key', 'X-Client-Id': clientId },
    });
    await res.body?.cancel();
    return {
      status: res.status,
      wait: retryAfterMs(res.headers.get('Retry-After'), fake.control.now()),
    };
  };
  // The hammering loop spends the minute and starts hitting the 429s...
  expect(await naiveGet(fake, 'hammer', 2)).toBe(200);
  expect(await naiveGet(fake, 'hammer', 1)).toBe(200);
  expect(await naiveGet(fake, 'hammer', 3)).toBe(429);
  // ...the polite client's first request lands while the key's Retry-After runs...
  let told = await get('polite');
  expect(told.status).toBe(429);
  // ...and the loop goes on into a ban.
  expect(await naiveGet(fake, 'hammer', 3)).toBe(429);
  // The polite client waits every Retry-After it is given (the ban's too) and gets through.
  for (let i = 0; i < 3 && told.status === 429; i++) {
    fake.control.advanceTime((told.wait ?? 0) / 1000);
    told = await get('polite');
  }
  expect(told.status).toBe(200);

  const hammer = clientOf(fake, 'hammer');
  const polite = clientOf(fake, 'polite');
  expect(hammer.rules.ban).toMatchObject({ verdict: 'fail', bans: 1 });
  expect(polite.failures['429']).toBeGreaterThanOrEqual(2);
  expect(polite.rules.ban).toMatchObject({ verdict: 'pass', bans: 0, violations: 0 });
  expect(polite.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(polite.verdict).toBe('pass');
  expect(expectClientCompliance(fake, { clientId: 'polite' })).toHaveLength(1);
});

test('clientReport.copiesPerId: one judges every socket of an id as one copy; a bad value is refused by name', async () => {
  await expect(createFake({ clientReport: { copiesPerId: 'two' as 'one' } })).rejects.toThrow(
    /clientReport\.copiesPerId.*must be one of: one, unknown; got "two"/,
  );
  const verdicts: string[] = [];
  for (const copiesPerId of ['unknown', 'one'] as const) {
    const fake = await createFake({ clientReport: { copiesPerId } });
    fake.control.freezeTime(true);
    fake.control.setTime(start);
    fake.control.force('listPets', 503, 3, 1);
    // Two sockets taking turns every 0.5 s under Retry-After: 1, each coming back on time.
    for (const [i, socket] of ['http-1', 'http-2', 'http-1', 'http-2'].entries()) {
      if (i > 0) fake.control.advanceTime(0.5);
      await tabSend(fake, socket)('GET', '/v1/pets?limit=1');
    }
    verdicts.push(clientOf(fake, 'app').rules.retryAfter.verdict);
  }
  expect(verdicts).toEqual(['inconclusive', 'fail']);
});
