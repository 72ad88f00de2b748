/**
 * The backoff rule's error rates, by simulation of each retry formula the README names: 10,000
 * chains each, with seeded randomness (the seed is in the title), fed to the client report on a
 * frozen clock (the fake's clock moved by exactly each wait, as a test that sleeps by advancing
 * it would). The README's table of rates is this table. A correct backoff fails fewer than 10
 * times in 10,000 (below 1 in 1,000, however its jitter falls); the floor's own rate is exact
 * (backoff-floor.ts) and checked here against a simulated reference client too.
 *
 * The formulas, from the sources cited in client-matrix.test.ts: each is the wait before retry
 * k (1-based), in ms, given a uniform draw `r` in [0, 1).
 */
import { expect, test } from 'vitest';
import { seededRandom } from '../injected-failures/seeded-random.ts';
import { backoffFloorMs, floorReference } from './backoff-floor.ts';
import { ClientReporter } from './client-report.ts';

const seed = 20_261_126;
const chains = 10_000;
const t0 = Date.UTC(2026, 5, 1, 12);

type Formula = (k: number, r: () => number) => number;

/** A formula, the retries of one chain, and the counts of verdicts in 10,000 chains. */
interface Case {
  readonly formula: Formula;
  readonly retries: number;
  readonly expected: {
    readonly pass: number;
    readonly fail: number;
    readonly inconclusive: number;
  };
}

const doubling = (base: number) => (k: number) => base * 2 ** (k - 1);

const cases: Record<string, Case> = {
  // ky 2.1.0 distribution/utils/normalize.js: 0.3 * 2^(n-1) s; `jitter: true`: random * delay.
  'ky default': {
    formula: doubling(300),
    retries: 3,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  'ky jitter: true': {
    formula: (k, r) => r() * doubling(300)(k),
    retries: 3,
    expected: { pass: 8058, fail: 0, inconclusive: 1942 },
  },
  'ky equal jitter': {
    formula: (k, r) => (0.5 + 0.5 * r()) * doubling(300)(k),
    retries: 3,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  // got 16.1.0 core/calculate-retry-delay.js: 2^(n-1) s + up to 100 ms of noise.
  got: {
    formula: (k, r) => doubling(1000)(k) + 100 * r(),
    retries: 3,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  // axios-retry 4.5.0 dist/esm/index.js: exponentialDelay 2^n x 100 ms + 0-20%; noDelay 0;
  // linearDelay(300) n x 300 ms.
  'axios-retry exponentialDelay': {
    formula: (k, r) => 2 ** k * 100 * (1 + 0.2 * r()),
    retries: 4,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  'axios-retry default': {
    formula: () => 0,
    retries: 8,
    expected: { pass: 0, fail: 10_000, inconclusive: 0 },
  },
  'axios-retry linearDelay(300)': {
    formula: (k) => 300 * k,
    retries: 7,
    expected: { pass: 0, fail: 10_000, inconclusive: 0 },
  },
  // retry-axios 4.0.3 build/src/index.js: ((2^n - 1) / 2) x 100 ms; full: x random; equal: half + half x random.
  'retry-axios default': {
    formula: (k) => ((2 ** k - 1) / 2) * 100,
    retries: 3,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  'retry-axios full jitter': {
    formula: (k, r) => r() * ((2 ** k - 1) / 2) * 100,
    retries: 3,
    expected: { pass: 7459, fail: 0, inconclusive: 2541 },
  },
  // p-retry 9.0.0 index.js: minTimeout x 2^(n-1) (200 ms here), randomize x (1 + random).
  'p-retry': {
    formula: doubling(200),
    retries: 4,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  'p-retry randomize': {
    formula: (k, r) => (1 + r()) * doubling(200)(k),
    retries: 4,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  // exponential-backoff 3.1.3: 100 ms x 2^(n-1); `jitter: 'full'` rounds random x delay.
  'exponential-backoff': {
    formula: doubling(100),
    retries: 3,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  'exponential-backoff full jitter': {
    formula: (k, r) => Math.round(r() * doubling(100)(k)),
    retries: 3,
    expected: { pass: 7406, fail: 0, inconclusive: 2594 },
  },
  // fetch-retry 6.0.0 README: 2^attempt x 200 ms (attempt from 0).
  'fetch-retry': {
    formula: doubling(200),
    retries: 4,
    expected: { pass: 10_000, fail: 0, inconclusive: 0 },
  },
  // ofetch 1.5.1: retryDelay 500 ms, whatever happened; superagent: at once.
  'ofetch retryDelay: 500, retry: 3': {
    formula: () => 500,
    retries: 3,
    expected: { pass: 0, fail: 0, inconclusive: 10_000 },
  },
  'ofetch retryDelay: 500, retry: 6': {
    formula: () => 500,
    retries: 6,
    expected: { pass: 0, fail: 10_000, inconclusive: 0 },
  },
  'superagent .retry(8)': {
    formula: () => 0,
    retries: 8,
    expected: { pass: 0, fail: 10_000, inconclusive: 0 },
  },
  // A hand-written loop: every 40-120 ms, nine retries.
  'hand loop 40-120 ms x 9': {
    formula: (_k, r) => 40 + 80 * r(),
    retries: 9,
    expected: { pass: 0, fail: 10_000, inconclusive: 0 },
  },
  // The floor's reference client, at the most retries the floor reads: full jitter from 50 ms,
  // doubling, capped at 3.2 s.
  'reference: full jitter from 50 ms, cap 3.2 s, x 10': {
    formula: (k, r) => r() * Math.min(3200, doubling(50)(k)),
    retries: 10,
    expected: { pass: 3280, fail: 3, inconclusive: 6717 },
  },
};

/** Runs 10,000 chains of one formula through the client report; counts the backoff verdicts. */
function simulate(name: string, { formula, retries }: Case) {
  const random = seededRandom(seed, name);
  const counts = { pass: 0, fail: 0, inconclusive: 0 };
  // Arrivals and answers in one sequence, as the exchanges number them for the report.
  let moment = 0;
  for (let i = 0; i < chains; i++) {
    const reporter = new ClientReporter();
    // Real time stands still; the fake's clock moves by each wait: a frozen clock advanced.
    let at = t0;
    for (let k = 0; k <= retries; k++) {
      if (k > 0) at += formula(k, random);
      reporter.record({
        keyId: 'demo-free',
        clientId: 'sim',
        connection: 'in-process',
        arrivalSeq: ++moment,
        answeredSeq: ++moment,
        oneCopy: false,
        method: 'GET',
        path: '/v1/pets',
        query: '',
        bodyHash: undefined,
        arrivedAt: at,
        answeredAt: at,
        arrivedReal: t0,
        answeredReal: t0,
        status: k === retries ? 200 : 500,
        errorCode: undefined,
        retryAfter: undefined,
        resetInMs: undefined,
        chaos: false,
        stubbed: false,
        dropped: false,
        refused: false,
        keyViolations: 0,
        banStarted: false,
      });
    }
    const verdict = reporter.report(t0, t0, true, (target) => target).clients[0]?.rules.backoff
      .verdict;
    if (verdict === 'pass' || verdict === 'fail' || verdict === 'inconclusive')
      counts[verdict] += 1;
  }
  return counts;
}

for (const [name, simulated] of Object.entries(cases))
  test(`${name}: ${simulated.expected.pass} pass, ${simulated.expected.fail} fail, ${simulated.expected.inconclusive} inconclusive in 10,000 chains (seed ${seed})`, () => {
    const counts = simulate(name, simulated);
    expect(counts).toEqual(simulated.expected);
  });

test('every correct backoff simulated fails fewer than 1 chain in 1,000', () => {
  const correct = Object.entries(cases).filter(([, c]) => c.expected.pass > 0);
  expect(correct.length).toBeGreaterThanOrEqual(13);
  for (const [name, c] of correct) expect(c.expected.fail, name).toBeLessThan(chains / 1000);
});

test("the floor is the reference client's 1-in-20,000 total, and the simulated reference falls under it that rarely", () => {
  // 100,000 reference chains per count of retries: under the floor about 5 times each.
  const random = seededRandom(seed, 'floor');
  for (let n = floorReference.fromRetries; n <= floorReference.toRetries; n++) {
    const floor = backoffFloorMs(n) as number;
    let under = 0;
    for (let i = 0; i < 100_000; i++) {
      let total = 0;
      for (let k = 1; k <= n; k++)
        total += random() * Math.min(floorReference.capMs, floorReference.baseMs * 2 ** (k - 1));
      if (total < floor) under += 1;
    }
    // Poisson around 5: 20 or more would be a 1-in-10^6 draw.
    expect(under, `${n} retries, floor ${floor} ms`).toBeLessThan(20);
  }
  expect([3, 4, 5, 6, 7, 8, 9, 10].map((n) => backoffFloorMs(n))).toEqual([
    6, 26, 71, 166, 355, 658, 1088, 1642,
  ]);
});
