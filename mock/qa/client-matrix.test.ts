/**
 * The client compliance report against real retry libraries (Limits, rule 2: "the client retries
 * after the time indicated in Retry-After and uses exponential backoff"), each configured as its
 * README shows, over the HTTP door, read from `GET /__control/clients`. Exact versions are pinned
 * in devDependencies; every case says the verdict it expects and the library line that makes it
 * right. The README's QA section shows this matrix as a table.
 *
 * Two scenarios per client, each on a fake of its own, all cases at once (a few seconds of real
 * waiting in all):
 * - `told`: two forced 503s saying `Retry-After: 1`, in seconds and in HTTP-date format. A client
 *   that waits what it is told passes `retryAfter`; its waits are the server's, so `backoff` is
 *   `not-applicable`.
 * - `own`: forced 500s (never with Retry-After), so every wait is the client's own and `backoff`
 *   is judged (3 retries pass or fail-as-hot-loop, 4 show a fixed interval, 5 linear growth).
 *   Not 503s: on a 503 without Retry-After ky 2 waits for X-RateLimit-Reset (up to a minute).
 *   The format changes nothing there, so `own` runs once.
 *
 * Math.random is pinned to 0.9 for the whole file, so got's noise (+90 ms), axios-retry's
 * exponentialDelay jitter (+18%) and ky's `jitter: true` (0.9 of the delay) are the same on every
 * run: verdicts do not depend on a draw. Base delays are 150 ms or more, so a loaded machine's
 * few tens of ms of client overhead do not blur growth.
 */
import axios from 'axios';
import axiosRetry, { exponentialDelay, linearDelay } from 'axios-retry';
import fetchRetry from 'fetch-retry';
import got from 'got';
import ky from 'ky';
import createClient, { type Middleware } from 'openapi-fetch';
import pRetry from 'p-retry';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { listenHttp } from '../doors/http/http-server.ts';
import { createFake } from '../fake.ts';
import type { RetryAfterFormat } from '../policies/retry-after.ts';
import type { ClientReport, RuleVerdict } from './client-report.ts';

beforeAll(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.9);
});
afterAll(() => {
  vi.restoreAllMocks();
});

const headers = { Authorization: 'Bearer free-demo-key' };
const retryable = new Set([429, 500, 502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What Retry-After asks for in ms (seconds or HTTP-date), as a client reads it, or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** One logical GET of `url` by a client under test; it may give up (the report judges that). */
type Client = (url: string) => Promise<unknown>;

const clients: Record<string, Client> = {
  // ky 2.1.0: distribution/utils/normalize.js `delay: attemptCount => 0.3 * (2 ** (attemptCount
  // - 1)) * 1000`; core/Ky.js #calculateRetryDelay: "Don't apply jitter when server provides
  // explicit retry timing", returning Retry-After (afterStatusCodes 413, 429, 503).
  'ky default': (url) => ky.get(url, { headers, retry: { limit: 3 } }).json(),
  // core/Ky.js #calculateDelay: `jitter: true` waits `Math.random() * retryDelay` (full jitter).
  'ky jitter: true': (url) => ky.get(url, { headers, retry: { limit: 3, jitter: true } }).json(),
  // The README's jitter function form, here drawing 0.9, 0.2, 0.7 of each delay: full jitter
  // whose waits shrink once (0.27 s, 0.12 s, 0.84 s).
  'ky jitter function': (url) => {
    const draws = [0.9, 0.2, 0.7];
    return ky
      .get(url, {
        headers,
        retry: { limit: 3, jitter: (delay) => delay * (draws.shift() ?? 1) },
      })
      .json();
  },
  // Equal jitter through the same option: half the delay fixed, half random (0.95 of it here).
  'ky equal jitter': (url) =>
    ky
      .get(url, {
        headers,
        retry: { limit: 3, jitter: (delay) => delay / 2 + (Math.random() * delay) / 2 },
      })
      .json(),
  // got 16.1.0: core/calculate-retry-delay.js returns Retry-After when the answer has one,
  // else `2 ** (attemptCount - 1) * 1000 + noise` (noise up to 100 ms; 90 here); core/index.js
  // reads an HTTP-date as `Date.parse(date) - Date.now()`.
  got: (url) => got(url, { headers, retry: { limit: 3 } }).json(),
  // axios-retry 4.5.0 README: "By default, it retries if it is a network error or a 5xx error
  // on an idempotent request"; dist/esm/index.js default retryDelay `noDelay`:
  // `Math.max(0, retryAfter(error))`: Retry-After honoured, no backoff of its own.
  'axios-retry default': (url) => {
    const client = axios.create({ headers });
    axiosRetry(client, { retries: 4 });
    return client.get(url);
  },
  // dist/esm/index.js exponentialDelay: `Math.max(2 ** retryNumber * delayFactor,
  // retryAfter(error))` plus 0-20% (18% here).
  'axios-retry exponentialDelay': (url) => {
    const client = axios.create({ headers });
    axiosRetry(client, { retries: 4, retryDelay: exponentialDelay });
    return client.get(url);
  },
  // dist/esm/index.js linearDelay(delayFactor): `Math.max(retryNumber * delayFactor,
  // retryAfter(error))`; README: `retryDelay: axiosRetry.linearDelay()` (500 ms steps here: a loaded machine adds up to a few hundred ms to a wait).
  'axios-retry linearDelay': (url) => {
    const client = axios.create({ headers });
    axiosRetry(client, { retries: 5, retryDelay: linearDelay(500) });
    return client.get(url);
  },
  // p-retry 9.0.0 index.js: `Math.round(random * options.minTimeout * (options.factor **
  // (attempt - 1)))`, factor 2; it never reads Retry-After. README: throw on a bad response.
  'p-retry': (url) =>
    pRetry(
      async () => {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`status ${res.status}`);
        return res.json();
      },
      { retries: 4, minTimeout: 200 },
    ),
  // index.js: `randomize` multiplies each timeout by 1 to 2 (`Math.random() + 1`; 1.9 here).
  'p-retry randomize': (url) =>
    pRetry(
      async () => {
        const res = await fetch(url, { headers });
        if (!res.ok) throw new Error(`status ${res.status}`);
        return res.json();
      },
      { retries: 4, minTimeout: 200, randomize: true },
    ),
  // fetch-retry 6.0.0 README: `retryDelay: function(attempt, error, response) { return
  // Math.pow(2, attempt) * 1000 }` (200 here) with `retryOn`; index.js never reads Retry-After.
  'fetch-retry': (url) =>
    fetchRetry(fetch)(url, {
      headers,
      retries: 4,
      retryOn: [429, 500, 503],
      retryDelay: (attempt: number) => 2 ** attempt * 200,
    }),
  // openapi-fetch 0.17.0 docs (Middleware & Auth): onResponse may return a new Response; this
  // middleware retries with max(Retry-After, 200 ms x 2^n).
  'openapi-fetch + retry middleware': async (url) => {
    const client = createClient<{
      '/pets': { get: { parameters: { query?: { limit?: number } }; responses: object } };
    }>({ baseUrl: url.slice(0, url.indexOf('/pets')), headers });
    client.use(retryMiddleware(4, 200));
    return client.GET('/pets', { params: { query: { limit: 1 } } });
  },
  // The loop everyone writes once: again at once, up to 5 tries.
  'naive loop': async (url) => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url, { headers });
      await res.body?.cancel();
      if (!retryable.has(res.status)) return;
    }
  },
  // Every 0.3 s whatever it is told, up to 5 retries.
  'fixed-interval loop': async (url) => {
    for (let i = 0; i < 6; i++) {
      const res = await fetch(url, { headers });
      await res.body?.cancel();
      if (!retryable.has(res.status)) return;
      await sleep(300);
    }
  },
  // As the rule wants it: max(Retry-After, 200 ms x 2^n).
  'well-behaved loop': async (url) => {
    for (let n = 0; n < 6; n++) {
      const res = await fetch(url, { headers });
      await res.body?.cancel();
      if (!retryable.has(res.status)) return;
      await sleep(Math.max(retryAfterMs(res.headers.get('Retry-After')) ?? 0, 200 * 2 ** n));
    }
  },
};

/** An openapi-fetch middleware that retries retryable answers: max(Retry-After, base x 2^n). */
function retryMiddleware(retries: number, baseMs: number): Middleware {
  return {
    async onResponse({ request, response }) {
      let answer = response;
      for (let n = 0; n < retries && retryable.has(answer.status); n++) {
        await answer.body?.cancel();
        await sleep(
          Math.max(retryAfterMs(answer.headers.get('Retry-After')) ?? 0, baseMs * 2 ** n),
        );
        answer = await fetch(new Request(request));
      }
      return answer;
    },
  };
}

type Scenario = 'told' | 'own';

/** One row of the matrix: a client, a scenario, a format, and the verdicts it must get. */
interface Row {
  readonly client: keyof typeof clients;
  readonly scenario: Scenario;
  readonly format: RetryAfterFormat;
  /** Forced answers: 503s saying Retry-After: 1 (told) or 500s (own). */
  readonly count: number;
  readonly retryAfter: RuleVerdict;
  readonly backoff: RuleVerdict;
  readonly verdict: RuleVerdict;
}

const told = (
  client: Row['client'],
  retryAfter: RuleVerdict,
  backoff: RuleVerdict,
  verdict: RuleVerdict,
): Row[] =>
  (['seconds', 'http-date'] as const).map((format) => ({
    client,
    scenario: 'told',
    format,
    count: 2,
    retryAfter,
    backoff,
    verdict,
  }));

const own = (client: Row['client'], count: number, backoff: RuleVerdict): Row => ({
  client,
  scenario: 'own',
  format: 'seconds',
  count,
  retryAfter: 'not-applicable',
  backoff,
  verdict: backoff,
});

const matrix: readonly Row[] = [
  ...told('ky default', 'pass', 'not-applicable', 'pass'),
  own('ky default', 3, 'pass'), // 0.3, 0.6, 1.2 s
  own('ky jitter: true', 3, 'pass'), // 0.27, 0.54, 1.08 s at random 0.9
  own('ky jitter function', 3, 'inconclusive'), // shrinks once: jitter, never a fail
  own('ky equal jitter', 3, 'pass'), // 0.29, 0.57, 1.14 s at random 0.9
  ...told('got', 'pass', 'not-applicable', 'pass'),
  own('got', 3, 'pass'), // 1.09, 2.09, 4.09 s
  ...told('axios-retry default', 'pass', 'not-applicable', 'pass'),
  own('axios-retry default', 3, 'fail'), // no delay of its own: a hot loop
  ...told('axios-retry exponentialDelay', 'pass', 'not-applicable', 'pass'),
  own('axios-retry exponentialDelay', 3, 'pass'), // 0.24, 0.47, 0.94 s
  ...told('axios-retry linearDelay', 'pass', 'not-applicable', 'pass'),
  own('axios-retry linearDelay', 5, 'fail'), // 0.5, 1.0, 1.5, 2.0, 2.5 s: linear
  // Ignores Retry-After: early at 0.2 and 0.4 s; two own waits are too few for backoff.
  ...told('p-retry', 'fail', 'inconclusive', 'fail'),
  own('p-retry', 3, 'pass'), // 0.2, 0.4, 0.8 s
  own('p-retry randomize', 3, 'pass'), // 0.38, 0.76, 1.52 s at random 0.9
  ...told('fetch-retry', 'fail', 'inconclusive', 'fail'),
  own('fetch-retry', 3, 'pass'), // 0.2, 0.4, 0.8 s
  ...told('openapi-fetch + retry middleware', 'pass', 'not-applicable', 'pass'),
  own('openapi-fetch + retry middleware', 3, 'pass'), // 0.2, 0.4, 0.8 s
  ...told('naive loop', 'fail', 'inconclusive', 'fail'),
  own('naive loop', 3, 'fail'), // 0 ms, 0 ms, 0 ms
  ...told('fixed-interval loop', 'fail', 'inconclusive', 'fail'), // 0.3 s, 0.6 s before 1 s
  own('fixed-interval loop', 4, 'fail'), // 0.3 s x 4
  ...told('well-behaved loop', 'pass', 'not-applicable', 'pass'),
  own('well-behaved loop', 3, 'pass'), // 0.2, 0.4, 0.8 s
];

/** Runs one row: a fake of its own behind the HTTP door, the client, then the report over HTTP. */
async function runRow(row: Row): Promise<void> {
  const fake = await createFake({ retryAfterFormat: row.format });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  try {
    const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
    if (row.scenario === 'told') fake.control.force('listPets', 503, row.count, 1);
    else fake.control.force('listPets', 500, row.count);
    await clients[row.client]?.(`${base}/v1/pets?limit=1`).catch(() => undefined);
    const res = await fetch(`${base}/__control/clients`);
    const report = (await res.json()) as ClientReport;
    const [client] = report.clients;
    const seen = {
      retryAfter: client?.rules.retryAfter.verdict,
      backoff: client?.rules.backoff.verdict,
      verdict: client?.verdict,
    };
    expect(
      seen,
      `waits: ${JSON.stringify(client?.rules.backoff.waits.map((w) => w.waitMs))}; ${[...(client?.problems ?? []), ...(client?.doubts ?? [])].join(' | ')}`,
    ).toEqual({ retryAfter: row.retryAfter, backoff: row.backoff, verdict: row.verdict });
    expect(client?.rules.ban.verdict).toBe('not-applicable');
  } finally {
    await door.close();
  }
}

const titleOf = (row: Row) =>
  `${row.client}, ${row.scenario === 'told' ? `told Retry-After: 1 (${row.format})` : 'own backoff (500s)'}: retryAfter ${row.retryAfter}, backoff ${row.backoff}, verdict ${row.verdict}`;

// Real waits on a shared machine: a stall of a few hundred ms (seen at load 15) can blur one
// wait, so a row is tried up to three times, each on a fresh fake. A client whose verdict is
// wrong gets it on every try, whatever the load, so the retry hides no wrong verdict.
const tries = { timeout: 30_000, retry: 2 };

// Waits of a second are told apart from early requests by hundreds of ms: these run at once.
describe.concurrent('real retry clients told Retry-After: 1 get the verdict they deserve', () => {
  for (const row of matrix.filter((r) => r.scenario === 'told'))
    test(titleOf(row), tries, () => runRow(row));
});

// Own waits of 0.2 s and up are compared with each other: one at a time, so the clients do not
// delay each other's requests by the tens of ms that blur growth.
describe('real retry clients backing off on their own get the verdict they deserve', () => {
  for (const row of matrix.filter((r) => r.scenario === 'own'))
    test(titleOf(row), tries, () => runRow(row));
});
