/**
 * The client report's rules on hand-made event sequences: what counts as early, which waits are
 * the client's own, how growth is judged (judgeChain on the waits real libraries make), which
 * client a ban is charged to, how two copies of one app under one id are told apart, and how
 * the two clocks are read. The real clients are in client-matrix.test.ts and
 * client-compliance.test.ts.
 */
import { expect, test } from 'vitest';
import { judgeChain } from './backoff-judgement.ts';
import { createClientReporter } from './client-report.ts';

const t0 = Date.UTC(2026, 5, 1, 12);

/** One answered request: arrived ms after t0 (real time; the fake's clock reads `fake` if given). */
interface Step {
  readonly at: number;
  readonly status: number;
  readonly retryAfter?: string;
  readonly code?: string;
  readonly client?: string;
  readonly path?: string;
  /** The fake's clock reading, when it differs from real time. */
  readonly fake?: number;
  readonly refused?: boolean;
  readonly violation?: boolean;
  readonly banStarted?: boolean;
  readonly resetInMs?: number;
}

/** How the tests show a request's URL: its path and query, as the fake's redaction leaves them. */
const pathOf = (url: URL) => `${url.pathname}${url.search}`;

function reporterFed(steps: readonly Step[]) {
  const reporter = createClientReporter();
  for (const s of steps) {
    const fake = t0 + (s.fake ?? s.at);
    reporter.record({
      keyId: 'demo-free',
      clientId: s.client ?? 'app',
      method: 'GET',
      url: new URL(`http://127.0.0.1:4010/v1${s.path ?? '/pets'}`),
      arrivedAt: fake,
      answeredAt: fake,
      arrivedReal: t0 + s.at,
      answeredReal: t0 + s.at,
      status: s.status,
      errorCode: s.code,
      retryAfter: s.retryAfter,
      resetInMs: s.resetInMs,
      chaos: false,
      dropped: false,
      refused: s.refused ?? false,
      violation: s.violation ?? false,
      banStarted: s.banStarted ?? false,
    });
  }
  return reporter;
}

function judge(steps: readonly Step[], client = 'app') {
  const found = reporterFed(steps)
    .report(t0, t0, false, pathOf)
    .clients.find((c) => c.clientId === client);
  if (found === undefined) throw new Error('no client recorded');
  return found;
}

/** A chain of failures without Retry-After at the given own waits (ms), then a success. */
function ownWaits(waits: readonly number[]): Step[] {
  const steps: Step[] = [{ at: 0, status: 503 }];
  let at = 0;
  for (const [i, wait] of waits.entries()) {
    at += wait;
    steps.push({ at, status: i === waits.length - 1 ? 200 : 503 });
  }
  return steps;
}

test('a request before Retry-After elapsed is early, by how much; one at the deadline is not', () => {
  const early = judge([
    { at: 0, status: 429, retryAfter: '2' },
    { at: 1500, status: 429, retryAfter: '2' },
    { at: 3500, status: 200 },
  ]);
  expect(early.rules.retryAfter).toMatchObject({
    verdict: 'fail',
    answersWithRetryAfter: 2,
    earlyRequests: 1,
    maxEarlyMs: 500,
  });
  expect(early.problems[0]).toBe(
    'Retry-After: 1 request(s) came before Retry-After elapsed (the earliest 0.50 s early)',
  );
  const onTime = judge([
    { at: 0, status: 429, retryAfter: '2' },
    { at: 2000, status: 200 },
  ]);
  expect(onTime.rules.retryAfter.verdict).toBe('pass');
  expect(onTime.verdict).toBe('pass');
});

test('an HTTP-date Retry-After is read against real time, whatever the fake clock shows', () => {
  const date = new Date(t0 + 5000).toUTCString();
  // The fake's clock is six months behind real time (a shifted clock): it changes nothing.
  const shift = -180 * 86_400_000;
  expect(
    judge([
      { at: 0, fake: shift, status: 503, retryAfter: date },
      { at: 4000, fake: shift + 4000, status: 200 },
    ]).rules.retryAfter.earlyRequests,
  ).toBe(1);
  expect(
    judge([
      { at: 0, fake: shift, status: 503, retryAfter: date },
      { at: 5000, fake: shift + 5000, status: 200 },
    ]).rules.retryAfter,
  ).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
});

test('a client that really waited on a frozen fake clock passes, and the wait says which clock', () => {
  // The QA recipe's frozen clock: the fake's clock never moves, the client sleeps 1.01 s for real.
  const client = judge([
    { at: 0, fake: 0, status: 503, retryAfter: '1' },
    { at: 1010, fake: 0, status: 503, retryAfter: '1' },
    { at: 2040, fake: 0, status: 200 },
  ]);
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(client.rules.backoff.waits.map((w) => [w.waitMs, w.fakeWaitMs, w.clock])).toEqual([
    [1010, 0, 'real'],
    [1030, 0, 'real'],
  ]);
  // A test that sleeps by advancing the frozen clock is judged on the fake's clock.
  const advanced = judge([
    { at: 0, fake: 0, status: 503, retryAfter: '1' },
    { at: 5, fake: 1000, status: 200 },
  ]);
  expect(advanced.rules.retryAfter.verdict).toBe('pass');
  expect(advanced.rules.backoff.waits[0]?.clock).toBe('fake');
  expect(reporterFed([{ at: 0, status: 200 }]).report(t0, t0 + 5000, true, pathOf).clock).toEqual({
    mode: 'frozen',
    offsetMs: -5000,
  });
});

test("real libraries' own waits: doubling passes, with or without proportional noise", () => {
  // ky 2 default delay 0.3 * 2^(n-1) s (distribution/utils/normalize.js); got 16 2^(n-1) s plus
  // up to 100 ms noise (calculate-retry-delay.js); axios-retry 4 exponentialDelay 2^n * 100 ms
  // plus 0-20% (dist/esm/index.js); p-retry 9 minTimeout * 2^n.
  expect(judgeChain([300, 600, 1200]).verdict).toBe('pass');
  expect(judgeChain([1090, 2003, 4071]).verdict).toBe('pass');
  expect(judgeChain([238, 401, 955, 1640]).verdict).toBe('pass');
  expect(judgeChain([100, 200, 400, 800]).verdict).toBe('pass');
});

test('linear growth, a fixed interval and a hot loop fail; too few waits decide nothing', () => {
  // axios-retry linearDelay: n * 100 ms. 100 -> 200 doubles, which is why 5 waits are needed.
  expect(judgeChain([100, 200, 300, 400, 500])).toEqual({
    verdict: 'fail',
    why: 'linear growth, not exponential: about +0.10 s per retry (0.10 s, 0.20 s, 0.30 s, 0.40 s, 0.50 s)',
  });
  expect(judgeChain([1000, 1003, 998, 1001]).verdict).toBe('fail');
  // A hot loop's 0 ms then 1 ms is not growth: under the 50 ms floor a wait is no wait.
  expect(judgeChain([0, 1, 2]).verdict).toBe('fail');
  // A hot loop on a loaded machine (seen in the matrix): still no wait.
  expect(judgeChain([23, 16, 1]).verdict).toBe('fail');
  expect(judgeChain([0, 1]).verdict).toBe('too-few');
  expect(judgeChain([1000, 1000, 1000]).verdict).toBe('inconclusive');
  expect(judgeChain([100, 200, 300, 400]).verdict).toBe('inconclusive');
});

test('jittered doubling is never failed: full jitter that happens to shrink is inconclusive', () => {
  // ky 2 `jitter: true` waits random * delay (core/Ky.js #calculateDelay): 0.3, 0.6, 1.2 s caps.
  expect(judgeChain([250, 90, 700, 1900]).verdict).toBe('inconclusive');
  // Equal jitter (half the delay fixed, half random) and p-retry's randomize (x1 to x2).
  expect(judgeChain([160, 590, 700, 2300]).verdict).toBe('inconclusive');
});

test('own waits of a whole chain are judged: fixed 1 s retries fail, doubling passes', () => {
  const fixed = judge(ownWaits([1000, 1000, 1000, 1000]));
  expect(fixed.rules.backoff).toMatchObject({
    verdict: 'fail',
    retries: 4,
    ownWaits: 4,
    chains: { pass: 0, fail: 1, inconclusive: 0 },
  });
  expect(fixed.problems).toEqual([
    'backoff: a fixed interval, not exponential (1.00 s, 1.00 s, 1.00 s, 1.00 s)',
  ]);
  expect(judge(ownWaits([300, 600, 1200])).rules.backoff.verdict).toBe('pass');
  expect(judge(ownWaits([300, 600])).rules.backoff).toMatchObject({
    verdict: 'inconclusive',
    reason: '2 own wait(s) in a row; 3 are needed to tell exponential from linear growth',
  });
});

test('a wait Retry-After asked for (plus up to 25% jitter) is the server choice, not judged', () => {
  // axios-retry exponentialDelay waits max(delay, Retry-After) + 0-20% (dist/esm/index.js).
  const obeying = judge([
    { at: 0, status: 503, retryAfter: '5' },
    { at: 5900, status: 503, retryAfter: '5' },
    { at: 5900 + 5200, status: 503, retryAfter: '5' },
    { at: 11_100 + 5000, status: 200 },
  ]);
  expect(obeying.rules.backoff).toMatchObject({ verdict: 'not-applicable', ownWaits: 0 });
  expect(obeying.rules.backoff.waits.map((w) => w.own)).toEqual([false, false, false]);
  expect(obeying.verdict).toBe('pass');
});

test('without Retry-After, a wait for X-RateLimit-Reset is the server choice too (ky 2)', () => {
  // ky 2 core/retry-timing.js: a missing Retry-After falls back to X-RateLimit-Reset.
  const ky = judge([
    { at: 0, status: 503, resetInMs: 45_000 },
    { at: 45_020, status: 503, resetInMs: 60_000 },
    { at: 105_030, status: 503, resetInMs: 60_000 },
    { at: 165_040, status: 503, resetInMs: 60_000 },
    { at: 225_050, status: 200 },
  ]);
  expect(ky.rules.backoff).toMatchObject({ verdict: 'not-applicable', ownWaits: 0 });
});

test('a success ends the chain: waits of two chains are never compared', () => {
  const client = judge([
    { at: 0, status: 500 },
    { at: 4000, status: 200 },
    { at: 5000, status: 500 },
    { at: 6000, status: 200 },
  ]);
  expect(client.rules.backoff).toMatchObject({ retries: 2, verdict: 'inconclusive' });
});

test('a client that gave up after one 429 is inconclusive, never a pass', () => {
  const client = judge([{ at: 0, status: 429, retryAfter: '1' }]);
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'inconclusive', judgedRequests: 0 });
  expect(client.verdict).toBe('inconclusive');
  expect(client.doubts[0]).toMatch(/never sent a request after a Retry-After/);
});

test('ban is not-applicable when nothing could ban: forced answers never count', () => {
  const client = judge([
    { at: 0, status: 429, retryAfter: '1', code: 'rate_limited' },
    { at: 1000, status: 200 },
  ]);
  expect(client.rules.ban).toMatchObject({ verdict: 'not-applicable', refusals: 0, bans: 0 });
  expect(client.verdict).toBe('pass');
});

test('a ban is charged once, to the client whose early requests earned it', () => {
  const refusal = { status: 429, retryAfter: '60', code: 'rate_limited', refused: true } as const;
  const banned = { status: 429, retryAfter: '300', code: 'temporarily_banned' } as const;
  const reporter = reporterFed([
    { at: 0, client: 'polite', ...refusal },
    { at: 10, client: 'naive', ...refusal },
    { at: 20, client: 'naive', ...refusal, violation: true },
    { at: 30, client: 'naive', ...banned, refused: true, violation: true, banStarted: true },
    { at: 40, client: 'naive', ...banned },
    { at: 60_000, client: 'polite', ...banned },
  ]);
  const [polite, naive] = reporter.report(t0, t0, false, pathOf).clients;
  expect(naive?.rules.ban).toMatchObject({ verdict: 'fail', bans: 1, violations: 2 });
  expect(polite?.rules.ban).toMatchObject({ verdict: 'pass', bans: 0, refusals: 1 });
  expect(polite?.verdict).toBe('pass');
});

test('two copies of one app under one id, each waiting its Retry-After, are never failed', () => {
  // ky instances 0.4 s apart, each told Retry-After: 1 and each waiting exactly 1 s.
  const client = judge([
    { at: 0, status: 429, retryAfter: '1' },
    { at: 400, status: 429, retryAfter: '1' },
    { at: 1000, status: 429, retryAfter: '1' },
    { at: 1400, status: 429, retryAfter: '1' },
    { at: 2000, status: 200 },
    { at: 2400, status: 200 },
  ]);
  expect(client.rules.retryAfter).toMatchObject({
    verdict: 'inconclusive',
    earlyRequests: 0,
    ambiguousEarly: 1,
  });
  expect(client.rules.backoff.verdict).toBe('not-applicable');
  expect(client.verdict).toBe('inconclusive');
  expect(client.doubts[0]).toMatch(/two copies of one app share the id/);
  // One copy retrying early and never on time is an early retry, not a second copy.
  const naive = judge([
    { at: 0, status: 429, retryAfter: '1' },
    { at: 5, status: 429, retryAfter: '1' },
    { at: 10, status: 429, retryAfter: '1' },
    { at: 15, status: 200 },
  ]);
  expect(naive.rules.retryAfter).toMatchObject({ verdict: 'fail', earlyRequests: 3 });
});

test('a hot loop fails backoff even when every retry is also early', () => {
  const steps: Step[] = [];
  for (let i = 0; i < 6; i++) steps.push({ at: i, status: 429, retryAfter: '1' });
  const client = judge(steps);
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'fail', earlyRequests: 5 });
  expect(client.rules.backoff.verdict).toBe('fail');
  expect(client.problems[1]).toMatch(/^backoff: no backoff: 5 retries in a row/);
});

test("each client keeps its own recent requests: another client's flood pushes nothing out", () => {
  const steps: Step[] = [{ at: 0, client: 'quiet', status: 200 }];
  for (let i = 1; i <= 40; i++) steps.push({ at: i, client: 'flood', status: 200 });
  const report = reporterFed(steps).report(t0, t0, false, pathOf);
  const quiet = report.clients.find((c) => c.clientId === 'quiet');
  const flood = report.clients.find((c) => c.clientId === 'flood');
  expect(quiet?.recent.map((r) => r.realAt)).toEqual([new Date(t0).toISOString()]);
  expect(flood?.recent).toHaveLength(10);
  expect(report.recent).toHaveLength(25);
  expect(quiet?.lastSeen).toEqual({
    fake: new Date(t0).toISOString(),
    real: new Date(t0).toISOString(),
  });
});

test('a client that met no failure is not-applicable on every rule', () => {
  const client = judge([
    { at: 0, status: 200 },
    { at: 10, status: 201 },
  ]);
  expect(client.verdict).toBe('not-applicable');
  expect(client.rules.retryAfter.verdict).toBe('not-applicable');
});

test('past 64 clients on one key, later ones share one entry', () => {
  const steps: Step[] = [];
  for (let i = 0; i < 70; i++) steps.push({ at: i, client: `app-${i}`, status: 200 });
  const clients = reporterFed(steps).report(t0, t0, false, pathOf).clients;
  expect(clients).toHaveLength(65);
  expect(clients.at(-1)?.clientId).toBe('(other clients)');
  expect(clients.at(-1)?.requests).toBe(6);
});

test('a client flooding early retries keeps its report bounded: a chain holds its latest 64 own waits', () => {
  // Each 429 says Retry-After: 60 and the client comes back 1 ms later, 3,000 times: every
  // request opens a chain early against the last. The hot loop fails backoff on its latest waits.
  const steps: Step[] = Array.from({ length: 3000 }, (_, i) => ({
    at: i,
    status: 429,
    retryAfter: '60',
  }));
  const backoff = judge(steps)?.rules.backoff;
  expect(backoff?.verdict).toBe('fail');
  const listed = /\(([^)]*)\)/.exec(backoff?.reason ?? '')?.[1]?.split(', ') ?? [];
  expect(listed.length).toBeGreaterThanOrEqual(3);
  expect(listed.length).toBeLessThanOrEqual(64);
});
