/**
 * The client compliance report against real retry libraries (Limits, rule 2: "the client retries
 * after the time indicated in Retry-After and uses exponential backoff"), each configured as its
 * README shows, exact versions pinned in devDependencies. Every row says the verdicts it expects
 * and the library line that makes them right; the README's QA section shows this matrix as a
 * table. got and superagent, which speak Node's http, run in process in client-matrix-msw.test.ts.
 *
 * Each row runs in every variant at once, each on a fake of its own: over the HTTP door and in
 * process (`fake.fetch`, or axios's fetch adapter over it), on a frozen fake clock and on one six
 * months behind and ticking, and for a Retry-After the fake sends, in seconds and as an HTTP-date.
 * Scenarios:
 * - `told`: forced 503s saying `Retry-After: 1` (or 3). A client that waits what it is told
 *   passes `retryAfter`; its waits are the server's, so `backoff` is `not-applicable`.
 * - `own`: forced 500s (never with Retry-After), so every wait is the client's own and `backoff`
 *   is judged. Not 503s: on a 503 without Retry-After ky 2 waits for X-RateLimit-Reset.
 * - `create`: forced 503s on `POST /pets`: does the client resend a create whose outcome it
 *   could not know?
 *
 * Math.random is pinned to 0.9 for the whole file, so got's noise (+90 ms), axios-retry's jitter
 * (+18%), ky's and retry-axios's full jitter (0.9 of the delay) and p-retry's and async-retry's
 * `randomize` (x1.9) are the same on every run: no verdict here depends on a draw (the draws are
 * simulated in backoff-judgement.test.ts). The verdicts hold on a loaded machine: no row is
 * retried, and the suite runs beside every other file of `npm test`.
 */
import retryAsync from 'async-retry';
import axios from 'axios';
import axiosRetry, { exponentialDelay, linearDelay } from 'axios-retry';
import { backOff } from 'exponential-backoff';
import fetchRetry from 'fetch-retry';
import got from 'got';
import ky from 'ky';
import { createFetch } from 'ofetch';
import createClient, { type Middleware } from 'openapi-fetch';
import pRetry from 'p-retry';
import * as rax from 'retry-axios';
import superagent from 'superagent';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { RetryAfterFormat } from '../../../base/quota/retry-after.ts';
import { createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import { seededRandom } from '../injected-failures/seeded-random.ts';
import type { ClientReport, ClientSummary, RuleVerdict } from './client-report.ts';

beforeAll(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0.9);
});
afterAll(() => {
  vi.restoreAllMocks();
});

const headers = { Authorization: 'Bearer free-demo-key' };
const retryable = new Set([429, 500, 502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pet = { name: 'Rex', categoryId: 1 };

/** What Retry-After asks for in ms (seconds or HTTP-date), as a client reads it, or undefined. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Where a client sends its requests: the fake's base URL, and the fetch to use (HTTP or in process). */
interface Target {
  readonly base: string;
  readonly fetch: typeof fetch;
  readonly inProcess: boolean;
}

/** One logical request by a client under test (GET /pets, or POST /pets for `create`); it may give up. */
type Client = (target: Target, create: boolean) => Promise<unknown>;

/** A fetch that throws on a failed answer, as p-retry's and async-retry's READMEs do. */
function throwingFetch(target: Target, create: boolean) {
  return async () => {
    const res = await target.fetch(...request(target, create));
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`status ${res.status}`);
    }
    return res.json();
  };
}

/** The request a client sends: GET /pets?limit=1, or POST /pets with one pet. */
function request(target: Target, create: boolean): [string, RequestInit] {
  return create
    ? [
        `${target.base}/v1/pets`,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(pet),
        },
      ]
    : [`${target.base}/v1/pets?limit=1`, { headers }];
}

/** An axios instance over the target: Node's http, or in process through axios's fetch adapter. */
function axiosFor(target: Target) {
  return axios.create({
    headers,
    ...(target.inProcess ? { adapter: 'fetch', env: { fetch: target.fetch } } : {}),
  });
}

const clients = {
  // ky 2.1.0: distribution/utils/normalize.js `delay: attemptCount => 0.3 * (2 ** (attemptCount
  // - 1)) * 1000`; core/Ky.js #calculateRetryDelay: "Don't apply jitter when server provides
  // explicit retry timing", returning Retry-After (afterStatusCodes 413, 429, 503). It never
  // retries POST (default `methods`).
  'ky default': (t, create) =>
    ky(request(t, create)[0], { ...request(t, create)[1], fetch: t.fetch, retry: { limit: 3 } }),
  // core/Ky.js #calculateDelay: `jitter: true` waits `Math.random() * retryDelay` (full jitter).
  'ky jitter: true': (t) =>
    ky.get(`${t.base}/v1/pets?limit=1`, {
      headers,
      fetch: t.fetch,
      retry: { limit: 3, jitter: true },
    }),
  // The README's jitter function form, here drawing 0.9, 0.2, 0.7 of each delay: full jitter
  // whose waits shrink once (0.27 s, 0.12 s, 0.84 s).
  'ky jitter function': (t) => {
    const draws = [0.9, 0.2, 0.7];
    return ky.get(`${t.base}/v1/pets?limit=1`, {
      headers,
      fetch: t.fetch,
      retry: { limit: 3, jitter: (delay) => delay * (draws.shift() ?? 1) },
    });
  },
  // got 16.1.0: core/calculate-retry-delay.js returns Retry-After when the answer has one,
  // else `2 ** (attemptCount - 1) * 1000 + noise` (noise up to 100 ms; 90 here); core/index.js
  // reads an HTTP-date as `Date.parse(date) - Date.now()`. Node's http only: HTTP here.
  got: (t) => got(`${t.base}/v1/pets?limit=1`, { headers, retry: { limit: 3 } }).json(),
  // axios-retry 4.5.0 README: "By default, it retries if it is a network error or a 5xx error
  // on an idempotent request"; dist/esm/index.js default retryDelay `noDelay`:
  // `Math.max(0, retryAfter(error))`: Retry-After honoured, no backoff of its own.
  'axios-retry default': (t) => {
    const client = axiosFor(t);
    axiosRetry(client, { retries: 8 });
    return client.get(`${t.base}/v1/pets?limit=1`);
  },
  // dist/esm/index.js exponentialDelay: `Math.max(2 ** retryNumber * delayFactor,
  // retryAfter(error))` plus 0-20% (18% here).
  'axios-retry exponentialDelay': (t) => {
    const client = axiosFor(t);
    axiosRetry(client, { retries: 4, retryDelay: exponentialDelay });
    return client.get(`${t.base}/v1/pets?limit=1`);
  },
  // dist/esm/index.js linearDelay(delayFactor): `Math.max(retryNumber * delayFactor,
  // retryAfter(error))`; README: `retryDelay: axiosRetry.linearDelay()` (300 ms steps here).
  'axios-retry linearDelay': (t) => {
    const client = axiosFor(t);
    axiosRetry(client, { retries: 7, retryDelay: linearDelay(300) });
    return client.get(`${t.base}/v1/pets?limit=1`);
  },
  // retry-axios 4.0.3 build/src/index.js: `delay = ((2 ** retrycount - 1) / 2) * retryDelay`
  // (retryDelay 100: 50, 150, 350 ms); `checkRetryAfter` (default true) waits Retry-After
  // instead (seconds or `Date.parse(header) - Date.now()`). README: `rax.attach(instance)`.
  'retry-axios default': (t) => {
    const client = axiosFor(t);
    client.defaults.raxConfig = { retry: 3 };
    rax.attach(client);
    return client.get(`${t.base}/v1/pets?limit=1`);
  },
  // README "Full Jitter": `jitter: 'full'` waits `Math.random() * delay` (0.9 here).
  'retry-axios full jitter': (t) => {
    const client = axiosFor(t);
    client.defaults.raxConfig = { retry: 3, jitter: 'full' };
    rax.attach(client);
    return client.get(`${t.base}/v1/pets?limit=1`);
  },
  // p-retry 9.0.0 index.js: `Math.round(random * options.minTimeout * (options.factor **
  // (attempt - 1)))`, factor 2; it never reads Retry-After. README: throw on a bad response.
  'p-retry': (t, create) => pRetry(throwingFetch(t, create), { retries: 4, minTimeout: 200 }),
  // p-retry's defaults (minTimeout 1000: 1, 2, 4 s) under Retry-After: 3.
  'p-retry defaults': (t) => pRetry(throwingFetch(t, false), { retries: 3 }),
  // index.js: `randomize` multiplies each timeout by 1 to 2 (`Math.random() + 1`; 1.9 here).
  'p-retry randomize': (t) =>
    pRetry(throwingFetch(t, false), { retries: 4, minTimeout: 200, randomize: true }),
  // async-retry 1.3.3 lib/index.js: `randomize` defaults to true; retry 0.13.1 lib/retry.js
  // createTimeout: `Math.round(random * Math.max(minTimeout, 1) * Math.pow(factor, attempt))`,
  // random = Math.random() + 1, factor 2, sorted ascending; never reads Retry-After.
  'async-retry': (t) => retryAsync(throwingFetch(t, false), { retries: 3, minTimeout: 200 }),
  // exponential-backoff 3.1.3 dist/delay/delay.base.js: `startingDelay * timeMultiple ** n`
  // (100 ms, x2) from the second attempt (skip-first); `jitter: 'full'` rounds
  // `Math.random() * delay`; it never reads Retry-After.
  'exponential-backoff': (t) => backOff(throwingFetch(t, false), { numOfAttempts: 4 }),
  'exponential-backoff full jitter': (t) =>
    backOff(throwingFetch(t, false), { numOfAttempts: 4, jitter: 'full' }),
  // fetch-retry 6.0.0 README: `retryDelay: function(attempt, error, response) { return
  // Math.pow(2, attempt) * 1000 }` (200 here) with `retryOn`; index.js never reads Retry-After.
  'fetch-retry': (t) =>
    fetchRetry(t.fetch)(`${t.base}/v1/pets?limit=1`, {
      headers,
      retries: 4,
      retryOn: [429, 500, 503],
      retryDelay: (attempt: number) => 2 ** attempt * 200,
    }),
  // ofetch 1.5.1 README: "retry: 3, retryDelay: 500, // ms"; dist/shared/ofetch.*.mjs onError
  // waits `retryDelay` whatever the answer said, and "If you set a custom value for retry it will
  // always retry for all requests" (POST too).
  'ofetch retryDelay: 500': (t, create) =>
    createFetch({ fetch: t.fetch })(request(t, create)[0], {
      ...(create ? { method: 'POST', body: pet } : {}),
      headers,
      retry: 3,
      retryDelay: 500,
    }),
  'ofetch retryDelay: 500, retry: 6': (t) =>
    createFetch({ fetch: t.fetch })(`${t.base}/v1/pets?limit=1`, {
      headers,
      retry: 6,
      retryDelay: 500,
    }),
  // superagent 10.4.2 lib/request-base.js: `.retry(count)` retries a 5xx, 429 or network error
  // at once (`_retry` re-sends with no delay), any method; never reads Retry-After. Node's
  // http only: HTTP here.
  superagent: (t, create) =>
    (create
      ? superagent.post(`${t.base}/v1/pets`).send(pet)
      : superagent.get(`${t.base}/v1/pets?limit=1`)
    )
      .set(headers)
      .retry(8),
  // openapi-fetch 0.17.0 docs (Middleware & Auth): onResponse may return a new Response; this
  // middleware retries with max(Retry-After, 200 ms x 2^n).
  'openapi-fetch + retry middleware': (t) => {
    const client = createClient<{
      '/pets': { get: { parameters: { query?: { limit?: number } }; responses: object } };
    }>({ baseUrl: `${t.base}/v1`, headers, fetch: t.fetch });
    client.use(retryMiddleware(t.fetch, 4, 200));
    return client.GET('/pets', { params: { query: { limit: 1 } } });
  },
  // The loop everyone writes once: again at once, up to 8 retries.
  'naive loop': (t) => loop(t, 8, () => 0),
  // Every 0.3 s whatever it is told, up to 6 retries.
  'fixed-interval loop': (t) => loop(t, 6, () => 300),
  // A hand-written loop: every 40-120 ms (seeded), nine retries.
  'hand loop 40-120 ms': (t) => {
    const random = seededRandom(31, 'hand loop');
    return loop(t, 9, () => 40 + 80 * random());
  },
  // As the rule wants it: max(Retry-After, 200 ms x 2^n).
  'well-behaved loop': (t) => loop(t, 6, (n, told) => Math.max(told ?? 0, 200 * 2 ** n)),
} satisfies Record<string, Client>;

/** A hand-written retry loop: up to `retries` retries, waiting `wait(n, retryAfterMs)`. */
async function loop(
  target: Target,
  retries: number,
  wait: (n: number, told: number | undefined) => number,
): Promise<void> {
  for (let n = 0; ; n++) {
    const res = await target.fetch(...request(target, false));
    await res.body?.cancel();
    if (!retryable.has(res.status) || n === retries) return;
    await sleep(wait(n, retryAfterMs(res.headers.get('Retry-After'))));
  }
}

/** An openapi-fetch middleware that retries retryable answers: max(Retry-After, base x 2^n). */
function retryMiddleware(fetchFn: typeof fetch, retries: number, baseMs: number): Middleware {
  return {
    async onResponse({ request, response }) {
      let answer = response;
      for (let n = 0; n < retries && retryable.has(answer.status); n++) {
        await answer.body?.cancel();
        await sleep(
          Math.max(retryAfterMs(answer.headers.get('Retry-After')) ?? 0, baseMs * 2 ** n),
        );
        answer = await fetchFn(new Request(request));
      }
      return answer;
    },
  };
}

type ClientName = keyof typeof clients;
/** Clients that speak Node's http only: in process they run under msw (client-matrix-msw.test.ts). */
const httpOnly = new Set<ClientName>(['got', 'superagent']);

type Scenario =
  | { readonly kind: 'told'; readonly retryAfter: number; readonly count: number }
  | { readonly kind: 'own'; readonly count: number }
  | { readonly kind: 'create'; readonly count: number };

/** One row of the matrix: a client, a scenario, and the verdicts it must get in every variant. */
interface Row {
  readonly client: ClientName;
  readonly scenario: Scenario;
  readonly expected: Partial<Record<keyof ClientSummary['rules'] | 'verdict', RuleVerdict>>;
}

const told = (client: ClientName, retryAfter: RuleVerdict, verdict = retryAfter): Row => ({
  client,
  scenario: { kind: 'told', retryAfter: 1, count: 2 },
  expected: { retryAfter, ...(verdict === 'pass' ? { backoff: 'not-applicable' } : {}), verdict },
});

const own = (client: ClientName, count: number, backoff: RuleVerdict): Row => ({
  client,
  scenario: { kind: 'own', count },
  expected: { retryAfter: 'not-applicable', backoff, verdict: backoff },
});

const create = (client: ClientName, count: number, resentCreates: RuleVerdict): Row => ({
  client,
  scenario: { kind: 'create', count },
  expected: { resentCreates },
});

/** The rows; each comment gives the waits the library makes (own) or why the verdict. */
const matrix: readonly Row[] = [
  told('ky default', 'pass'),
  own('ky default', 3, 'pass'), // 0.3, 0.6, 1.2 s
  own('ky jitter: true', 3, 'pass'), // 0.27, 0.54, 1.08 s at random 0.9
  own('ky jitter function', 3, 'pass'), // 0.27, 0.12, 0.84 s: grew past its shortest
  told('got', 'pass'),
  own('got', 3, 'pass'), // 1.09, 2.09, 4.09 s
  told('axios-retry default', 'pass'),
  own('axios-retry default', 8, 'fail'), // no delay of its own: under the floor
  told('axios-retry exponentialDelay', 'pass'),
  own('axios-retry exponentialDelay', 4, 'pass'), // 0.24, 0.47, 0.94, 1.89 s
  told('axios-retry linearDelay', 'pass'),
  own('axios-retry linearDelay', 7, 'fail'), // 0.3, 0.6, ... 2.1 s: linear
  told('retry-axios default', 'pass'),
  own('retry-axios default', 3, 'pass'), // 0.05, 0.15, 0.35 s
  own('retry-axios full jitter', 3, 'pass'), // 0.045, 0.135, 0.315 s at random 0.9
  told('p-retry', 'fail'), // never reads Retry-After: 0.2 and 0.4 s, early
  own('p-retry', 4, 'pass'), // 0.2, 0.4, 0.8, 1.6 s
  {
    // p-retry's defaults: 1 s and 2 s under Retry-After: 3 are early, then 4 s.
    client: 'p-retry defaults',
    scenario: { kind: 'told', retryAfter: 3, count: 3 },
    expected: { retryAfter: 'fail', verdict: 'fail' },
  },
  own('p-retry randomize', 4, 'pass'), // 0.38, 0.76, 1.52, 3.04 s at random 0.9
  told('async-retry', 'fail'),
  own('async-retry', 3, 'pass'), // 0.38, 0.76, 1.52 s at random 0.9
  told('exponential-backoff', 'fail'),
  own('exponential-backoff', 3, 'pass'), // 0.1, 0.2, 0.4 s
  own('exponential-backoff full jitter', 3, 'pass'), // 0.09, 0.18, 0.36 s at random 0.9
  told('fetch-retry', 'fail'),
  own('fetch-retry', 4, 'pass'), // 0.2, 0.4, 0.8, 1.6 s
  {
    // Every 0.5 s under Retry-After: 1, on one connection: early, not a copy.
    client: 'ofetch retryDelay: 500',
    scenario: { kind: 'told', retryAfter: 1, count: 3 },
    expected: { retryAfter: 'fail', verdict: 'fail' },
  },
  own('ofetch retryDelay: 500', 3, 'inconclusive'), // 0.5 s x 3: too short to call fixed
  own('ofetch retryDelay: 500, retry: 6', 6, 'fail'), // 0.5 s x 6: a fixed interval
  told('superagent', 'fail'), // at once, whatever Retry-After says
  own('superagent', 8, 'fail'), // no delay: under the floor
  told('openapi-fetch + retry middleware', 'pass'),
  own('openapi-fetch + retry middleware', 3, 'pass'), // 0.2, 0.4, 0.8 s
  told('naive loop', 'fail'),
  own('naive loop', 8, 'fail'), // 0 ms x 8: under the floor
  told('fixed-interval loop', 'fail'), // 0.3 s and 0.6 s after a Retry-After of 1 s
  own('fixed-interval loop', 6, 'fail'), // 0.3 s x 6: a fixed interval
  own('hand loop 40-120 ms', 9, 'fail'), // nine waits, 1.08 s at most: under the 1.09 s floor
  told('well-behaved loop', 'pass'),
  own('well-behaved loop', 3, 'pass'), // 0.2, 0.4, 0.8 s
  // A create met 503s: ofetch, superagent and p-retry send it again, ky does not.
  create('ofetch retryDelay: 500', 3, 'fail'),
  create('superagent', 3, 'fail'),
  create('ky default', 1, 'pass'),
  create('p-retry', 2, 'fail'),
];

/** One way to run a row: the door, the fake's clock, and the Retry-After format. */
interface Variant {
  readonly door: 'http' | 'in-process';
  readonly clock: 'frozen' | 'shifted';
  readonly format: RetryAfterFormat;
}

/** Every variant a row runs in: both doors, both clocks, and both formats where Retry-After is sent. */
function variantsOf(row: Row): Variant[] {
  const doors = httpOnly.has(row.client) ? (['http'] as const) : (['http', 'in-process'] as const);
  const formats =
    row.scenario.kind === 'told' ? (['seconds', 'http-date'] as const) : (['seconds'] as const);
  return doors.flatMap((door) =>
    (['frozen', 'shifted'] as const).flatMap((clock) =>
      formats.map((format) => ({ door, clock, format })),
    ),
  );
}

/** The QA recipe's frozen clock (noon, the first of June), or six months behind, ticking. */
function setClock(fake: Fake, clock: Variant['clock']): void {
  if (clock === 'frozen') {
    fake.control.freezeTime(true);
    fake.control.setTime(Date.UTC(2026, 5, 1, 12));
  } else fake.control.setTime(Date.now() - 180 * 86_400_000);
}

/** Runs one row in one variant on a fake of its own; returns what differs from the expected verdicts. */
async function runVariant(row: Row, variant: Variant): Promise<string | undefined> {
  const fake = await createFake({ retryAfterFormat: variant.format });
  setClock(fake, variant.clock);
  const door =
    variant.door === 'http'
      ? await listenHttp(fake.behaviour, { port: 0, origin: fake.config.origins[0] as string })
      : undefined;
  try {
    const target: Target =
      door === undefined
        ? { base: fake.config.origins[0] as string, fetch: fake.fetch, inProcess: true }
        : {
            base: `http://127.0.0.1:${(door.server.address() as { port: number }).port}`,
            fetch,
            inProcess: false,
          };
    const { scenario } = row;
    if (scenario.kind === 'told')
      fake.control.force('listPets', 503, scenario.count, scenario.retryAfter);
    else if (scenario.kind === 'own') fake.control.force('listPets', 500, scenario.count);
    else fake.control.force('createPet', 503, scenario.count, null);
    await clients[row.client](target, scenario.kind === 'create').catch(() => undefined);
    const report =
      door === undefined
        ? fake.control.clients()
        : ((await (await fetch(`${target.base}/__control/clients`)).json()) as ClientReport);
    const [client] = report.clients;
    const seen: Record<string, unknown> = { verdict: client?.verdict };
    for (const rule of Object.keys(row.expected))
      if (rule !== 'verdict')
        seen[rule] = client?.rules[rule as keyof ClientSummary['rules']].verdict;
    const wanted = { verdict: row.expected.verdict ?? seen.verdict, ...row.expected };
    if (
      JSON.stringify(Object.entries(seen).sort()) === JSON.stringify(Object.entries(wanted).sort())
    )
      return undefined;
    return `${variant.door}, ${variant.clock} clock, ${variant.format}: got ${JSON.stringify(seen)}; waits ${JSON.stringify(client?.rules.backoff.waits.map((w) => Math.round(w.waitMs)))}; ${[...(client?.problems ?? []), ...(client?.doubts ?? [])].join(' | ')}`;
  } finally {
    await door?.close();
  }
}

const titleOf = (row: Row) => {
  const { scenario } = row;
  const what =
    scenario.kind === 'told'
      ? `told Retry-After: ${scenario.retryAfter} (503 x ${scenario.count})`
      : scenario.kind === 'own'
        ? `own backoff (500 x ${scenario.count})`
        : `a create met 503 x ${scenario.count}`;
  const verdicts = Object.entries(row.expected)
    .map(([rule, v]) => `${rule} ${v}`)
    .join(', ');
  return `${row.client}, ${what}: ${verdicts}`;
};

// Real waits of up to 8 s per row; the rows wait at once, their variants too.
describe.concurrent('real retry clients get the verdicts the README states, in every variant', () => {
  for (const row of matrix)
    test(titleOf(row), { timeout: 60_000 }, async () => {
      const variants = variantsOf(row);
      const wrong = await Promise.all(variants.map((variant) => runVariant(row, variant)));
      expect(wrong.filter((w) => w !== undefined)).toEqual([]);
    });
});
