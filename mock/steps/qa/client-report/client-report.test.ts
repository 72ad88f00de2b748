/**
 * The client report's rules on hand-made event sequences: what counts as early, which waits are
 * the client's own, how growth is judged (judgeChain on the waits real libraries make), which
 * client a ban is charged to, how two copies of one app under one id are told apart, and how
 * the two clocks are read. The real clients are in client-matrix.test.ts and
 * client-compliance.test.ts.
 */
import { expect, test } from 'vitest';
import { fnv1a } from '../../../base/messages/fnv1a.ts';
import { backoffFloorMs } from './backoff-floor.ts';
import { judgeChain } from './backoff-judgement.ts';
import { ClientReporter } from './client-report.ts';

const t0 = Date.UTC(2026, 5, 1, 12);

/** One answered request: arrived ms after t0 (real time; the fake's clock reads `fake` if given). */
interface Step {
  readonly at: number;
  readonly status: number;
  readonly retryAfter?: string;
  readonly code?: string;
  readonly client?: string;
  readonly path?: string;
  readonly method?: string;
  /** A non-idempotent request's body (hashed as the step would). */
  readonly body?: string;
  /** The connection it came on; default `in-process`. */
  readonly connection?: string;
  readonly oneCopy?: boolean;
  /** The fake's clock reading, when it differs from real time. */
  readonly fake?: number;
  readonly refused?: boolean;
  readonly keyViolations?: number;
  readonly banStarted?: boolean;
  readonly dropped?: boolean;
  readonly resetInMs?: number;
}

/** How the tests show a request's URL: its path and query, as the fake's redaction leaves them. */
const pathOf = (target: string) => target;

/** Arrivals and answers in one sequence, as the exchanges number them for the report. */
let moment = 0;
const arrive = () => ++moment;

/** A target's path and query, as an exchange holds them. */
function targetOf(target: string): { path: string; query: string } {
  const at = target.indexOf('?');
  return at === -1
    ? { path: target, query: '' }
    : { path: target.slice(0, at), query: target.slice(at) };
}

/** Feeds a reporter; steps arrive and are answered one at a time, in order. */
function feed(reporter: ClientReporter, s: Step, arrivalSeq?: number) {
  const fake = t0 + (s.fake ?? s.at);
  const client = s.client ?? 'app';
  const connection = s.connection ?? 'in-process';
  reporter.record({
    keyId: 'demo-free',
    clientId: client,
    connection,
    arrivalSeq: arrivalSeq ?? arrive(),
    answeredSeq: ++moment,
    oneCopy: s.oneCopy ?? false,
    method: s.method ?? 'GET',
    ...targetOf(`/v1${s.path ?? '/pets'}`),
    bodyHash: s.body === undefined ? undefined : fnv1a(s.body),
    arrivedAt: fake,
    answeredAt: fake,
    arrivedReal: t0 + s.at,
    answeredReal: t0 + s.at,
    status: s.status,
    errorCode: s.code,
    retryAfter: s.retryAfter,
    resetInMs: s.resetInMs,
    chaos: false,
    stubbed: false,
    dropped: s.dropped ?? false,
    refused: s.refused ?? false,
    keyViolations: s.keyViolations ?? (s.refused === true ? 1 : 0),
    banStarted: s.banStarted ?? false,
  });
}

function reporterFed(steps: readonly Step[]) {
  const reporter = new ClientReporter();
  for (const s of steps) feed(reporter, s);
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
    'Retry-After: 1 request(s) came before Retry-After elapsed (the earliest 500 ms early)',
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
  // A capped backoff passes on its growth: 0.1 s doubling to a 0.8 s cap.
  expect(judgeChain([100, 200, 400, 800, 800, 800, 800]).verdict).toBe('pass');
});

test('ky on a loaded machine: a first wait delayed 0.28 s still passes (the issue: 0.58, 0.64, 1.27 s)', () => {
  expect(judgeChain([580, 640, 1270]).verdict).toBe('pass');
  // Whichever of the first two waits a stall lengthens, the third still doubles the other.
  expect(judgeChain([300, 900, 1210]).verdict).toBe('pass');
});

test('linear growth and a fixed interval fail; a delayed retry does not hide them once there are enough waits', () => {
  // axios-retry linearDelay: n * 100 ms. 100 -> 200 doubles, which is why 5 waits are needed.
  expect(judgeChain([100, 200, 300, 400, 500])).toEqual({
    verdict: 'fail',
    why: 'linear growth, not exponential: about +100 ms per retry (100 ms, 200 ms, 300 ms, 400 ms, 500 ms)',
  });
  // One retry a stall delayed by 0.3 s: set aside from 7 waits.
  expect(judgeChain([500, 1000, 1800, 2000, 2500, 3000, 3500]).verdict).toBe('fail');
  expect(judgeChain([1000, 1003, 998, 1001]).verdict).toBe('fail');
  expect(judgeChain([300, 300, 600, 300, 300, 300]).verdict).toBe('fail');
  // Four and three waits of linear growth still read as doubling: never failed, not proven.
  expect(judgeChain([100, 200, 300, 400]).verdict).toBe('pass');
  expect(judgeChain([1000, 1000, 1000]).verdict).toBe('inconclusive');
});

test('the floor: a hot loop fails on the total of its waits, a chain too short to tell never does', () => {
  expect(backoffFloorMs(3)).toBe(6);
  expect(backoffFloorMs(9)).toBe(1088);
  expect(judgeChain([0, 1, 2]).verdict).toBe('fail');
  // A hot loop on a loaded machine: 23 + 16 + 1 ms is over the 6 ms floor of 3 waits.
  expect(judgeChain([23, 16, 1]).verdict).toBe('inconclusive');
  expect(judgeChain([23, 16, 1, 5, 9]).verdict).toBe('fail');
  expect(judgeChain([0, 1]).verdict).toBe('too-few');
  // A hand-written loop: every 40-120 ms, nine times: 1.08 s at most, under the 1.09 s floor.
  expect(judgeChain([120, 120, 120, 120, 120, 120, 120, 120, 120])).toMatchObject({
    verdict: 'fail',
    why: expect.stringMatching(/^no backoff: the first 9 retries waited 1\.08 s in all/),
  });
  // retry-axios's full jitter from 50 ms drew 1, 3, 7 ms: 11 ms, over the 6 ms floor of 3.
  expect(judgeChain([1, 3, 7]).verdict).toBe('inconclusive');
});

test('jittered doubling that happens to shrink passes or is inconclusive, not failed', () => {
  // ky 2 `jitter: true` waits random * delay (core/Ky.js #calculateDelay): 0.3, 0.6, 1.2 s caps.
  expect(judgeChain([250, 90, 700, 1900]).verdict).toBe('pass');
  expect(judgeChain([250, 590, 100]).verdict).toBe('inconclusive');
  // Equal jitter (half the delay fixed, half random) and p-retry's randomize (x1 to x2).
  expect(judgeChain([160, 590, 700, 2300]).verdict).toBe('pass');
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
    'backoff: a fixed interval, not exponential: 4 of 4 waits within 1.2x of each other (1 s, 1 s, 1 s, 1 s)',
  ]);
  expect(judge(ownWaits([300, 600, 1200])).rules.backoff.verdict).toBe('pass');
  expect(judge(ownWaits([300, 600])).rules.backoff).toMatchObject({
    verdict: 'inconclusive',
    reason: '2 own wait(s) in a row; 3 are needed before a chain can pass or fail',
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
    { at: 20, client: 'naive', ...refusal },
    { at: 30, client: 'naive', ...banned, refused: true, banStarted: true },
    { at: 40, client: 'naive', ...banned },
    { at: 60_000, client: 'polite', ...banned },
  ]);
  const [polite, naive] = reporter.report(t0, t0, false, pathOf).clients;
  expect(naive?.rules.ban).toMatchObject({ verdict: 'fail', bans: 1, violations: 2 });
  expect(polite?.rules.ban).toMatchObject({ verdict: 'pass', bans: 0, refusals: 1 });
  expect(polite?.verdict).toBe('pass');
});

test("blame by cause: a client whose first request met the key's Retry-After is never charged for its ban", () => {
  // A Free key's minute spent, a hammering loop earns the ban; a polite client
  // whose first request landed while the key's Retry-After ran is refused, never told before.
  const refusal = { status: 429, retryAfter: '50', code: 'rate_limited', refused: true } as const;
  const steps: Step[] = [{ at: 0, client: 'hammer', ...refusal, keyViolations: 0 }];
  for (let i = 1; i <= 3; i++)
    steps.push({ at: i * 10, client: 'hammer', ...refusal, keyViolations: i });
  steps.push({ at: 35, client: 'polite', ...refusal, keyViolations: 4 });
  steps.push({
    at: 40,
    client: 'hammer',
    status: 429,
    retryAfter: '300',
    code: 'temporarily_banned',
    refused: true,
    keyViolations: 5,
    banStarted: true,
  });
  // The polite client waits its 50 s and meets the ban, then waits that out too.
  steps.push({
    at: 50_035,
    client: 'polite',
    status: 429,
    retryAfter: '250',
    code: 'temporarily_banned',
    keyViolations: 5,
  });
  steps.push({ at: 300_100, client: 'polite', status: 200, keyViolations: 0 });
  const report = reporterFed(steps).report(t0, t0, false, pathOf);
  const hammer = report.clients.find((c) => c.clientId === 'hammer');
  const polite = report.clients.find((c) => c.clientId === 'polite');
  expect(hammer?.rules.ban).toMatchObject({ verdict: 'fail', bans: 1, violations: 4 });
  expect(polite?.rules.ban).toMatchObject({ verdict: 'pass', bans: 0, violations: 0, refusals: 1 });
  expect(polite?.rules.retryAfter).toMatchObject({ verdict: 'pass', earlyRequests: 0 });
  expect(polite?.problems).toEqual([]);
});

test('an early request before a ban is forgiven once the key admits a request again', () => {
  const refusal = { status: 429, retryAfter: '1', code: 'rate_limited', refused: true } as const;
  const steps: Step[] = [
    { at: 0, client: 'once', ...refusal },
    { at: 500, client: 'once', ...refusal },
    { at: 2_000, client: 'other', status: 200, keyViolations: 0 },
    { at: 3_000, client: 'other', ...refusal },
  ];
  for (let i = 1; i <= 5; i++)
    steps.push({
      at: 3_000 + i,
      client: 'other',
      ...refusal,
      keyViolations: i,
      banStarted: i === 5,
    });
  const report = reporterFed(steps).report(t0, t0, false, pathOf);
  expect(report.clients.find((c) => c.clientId === 'once')?.rules.ban).toMatchObject({
    verdict: 'pass',
    bans: 0,
    violations: 1,
  });
  expect(report.clients.find((c) => c.clientId === 'other')?.rules.ban.bans).toBe(1);
});

test('one connection is one instance: a client retrying every 0.5 s under Retry-After: 1 fails, on any door', () => {
  // ofetch with `retryDelay: 500`: four tries, each told Retry-After: 1. Over
  // HTTP they come on one socket, in process on none, through the worker from one tab.
  for (const connection of ['http-7', 'in-process', 'tab:3f2a']) {
    const steps: Step[] = [0, 500, 1000, 1500].map((at) => ({
      at,
      status: 503,
      retryAfter: '1',
      connection,
    }));
    steps.push({ at: 2000, status: 200, connection });
    const client = judge(steps);
    expect(client.rules.retryAfter, connection).toMatchObject({
      verdict: 'fail',
      earlyRequests: 4,
      ambiguousEarly: 0,
    });
    expect(client.verdict).toBe('fail');
  }
});

test('two copies in two tabs, each waiting its Retry-After, are told apart and pass; on two sockets they are inconclusive, never failed', () => {
  // ky copies 0.4 s apart, each told Retry-After: 1 and each waiting 1 s.
  const copies = (a: string, b: string): Step[] => [
    { at: 0, status: 429, retryAfter: '1', connection: a },
    { at: 400, status: 429, retryAfter: '1', connection: b },
    { at: 1000, status: 429, retryAfter: '1', connection: a },
    { at: 1400, status: 429, retryAfter: '1', connection: b },
    { at: 2000, status: 200, connection: a },
    { at: 2400, status: 200, connection: b },
  ];
  // Through the worker: each tab is one copy of the app.
  const tabs = judge(copies('tab:1', 'tab:2'));
  expect(tabs.rules.retryAfter).toMatchObject({
    verdict: 'pass',
    earlyRequests: 0,
    ambiguousEarly: 0,
  });
  expect(tabs.connections).toBe(2);
  expect(tabs.verdict).toBe('pass');
  // Over HTTP from two processes: two sockets could be one process alternating.
  const sockets = judge(copies('http-1', 'http-2'));
  expect(sockets.rules.retryAfter).toMatchObject({
    verdict: 'inconclusive',
    earlyRequests: 0,
    ambiguousEarly: 4,
  });
  expect(sockets.doubts[0]).toMatch(
    /^Retry-After: 4 request\(s\) came on one socket while a Retry-After given to this id on another still ran: a second copy of the app, or this one on a second socket .*; give each copy its own X-Client-Id, or declare one copy per id \(X-Client-Copies: 1/,
  );
  // Declared one copy per id: the same traffic is a client retrying every 0.4-0.6 s.
  const declared = judge(copies('http-1', 'http-2').map((step) => ({ ...step, oneCopy: true })));
  expect(declared.rules.retryAfter).toMatchObject({ verdict: 'fail', earlyRequests: 4 });
  expect(declared.oneCopy).toBe(true);
});

test('after the fake dropped a connection, the next connection carries on its chain', () => {
  const client = judge([
    { at: 0, status: 503, connection: 'a', dropped: true },
    { at: 300, status: 503, connection: 'b', dropped: true },
    { at: 900, status: 503, connection: 'c', dropped: true },
    { at: 2100, status: 200, connection: 'd' },
  ]);
  expect(client.rules.backoff).toMatchObject({ verdict: 'pass', retries: 3, ownWaits: 3 });
});

test('a request sent before a failure was answered is not its retry (request/answer order)', () => {
  const reporter = new ClientReporter();
  // Two concurrent requests of one client: the second arrives, then the first fails.
  const first = arrive();
  const second = arrive();
  feed(reporter, { at: 0, status: 429, retryAfter: '5' }, first);
  feed(reporter, { at: 1, status: 200 }, second);
  const [client] = reporter.report(t0, t0, false, pathOf).clients;
  expect(client?.rules.retryAfter).toMatchObject({ earlyRequests: 0, judgedRequests: 0 });
  expect(client?.rules.backoff.retries).toBe(0);
});

test('a create resent after a 503, a dropped connection or a timeout is reported with how many duplicates it could make', () => {
  const post = { method: 'POST', body: 'rex' } as const;
  const client = judge([
    { at: 0, status: 503, ...post },
    { at: 200, status: 503, ...post },
    { at: 600, status: 0, dropped: true, ...post },
    { at: 1400, status: 201, ...post, connection: 'in-process' },
  ]);
  expect(client.rules.resentCreates).toMatchObject({
    verdict: 'fail',
    resent: 3,
    possibleDuplicates: 3,
    after: { '503': 2, dropped: 1 },
    requests: ['POST /v1/pets'],
  });
  expect(client.problems).toContain(
    'resent create: resent POST /v1/pets 3 time(s) (2 after a 503, 1 after a dropped connection) whose outcome it could not know: up to 3 duplicate(s) on a server that acted before failing',
  );
  // Not folded into backoff: the waits are judged on their own.
  expect(client.rules.backoff.verdict).toBe('pass');
  // After a 429 the create was refused, not done: resending it is safe.
  const afterRateLimit = judge([
    { at: 0, status: 429, retryAfter: '1', ...post },
    { at: 1000, status: 201, ...post },
  ]);
  expect(afterRateLimit.rules.resentCreates.verdict).toBe('not-applicable');
  // A different body is another create, not a resend.
  const another = judge([
    { at: 0, status: 503, ...post },
    { at: 500, status: 201, method: 'POST', body: 'fido' },
  ]);
  expect(another.rules.resentCreates).toMatchObject({ verdict: 'pass', unknownOutcomes: 1 });
  // Timed out: the same create again before the first was answered.
  const reporter = new ClientReporter();
  const slow = arrive();
  feed(reporter, { at: 5000, status: 201, ...post });
  feed(reporter, { at: 0, status: 201, ...post }, slow);
  expect(reporter.report(t0, t0, false, pathOf).clients[0]?.rules.resentCreates).toMatchObject({
    verdict: 'fail',
    after: { timeout: 1 },
  });
});

test('a hot loop fails backoff even when every retry is also early', () => {
  const steps: Step[] = [];
  for (let i = 0; i < 6; i++) steps.push({ at: i, status: 429, retryAfter: '1' });
  const client = judge(steps);
  expect(client.rules.retryAfter).toMatchObject({ verdict: 'fail', earlyRequests: 5 });
  expect(client.rules.backoff.verdict).toBe('fail');
  expect(client.problems[1]).toMatch(
    /^backoff: no backoff: the first 3 retries waited 3 ms in all/,
  );
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

test('a client flooding early retries keeps its report bounded: a chain holds its first 10 own waits', () => {
  // Each 429 says Retry-After: 60 and the client comes back 1 ms later, 3,000 times.
  const steps: Step[] = Array.from({ length: 3000 }, (_, i) => ({
    at: i,
    status: 429,
    retryAfter: '60',
  }));
  const backoff = judge(steps)?.rules.backoff;
  expect(backoff?.verdict).toBe('fail');
  expect(backoff?.ownWaits).toBe(2999);
  const listed = /\(([^)]*)\)/.exec(backoff?.reason ?? '')?.[1]?.split(', ') ?? [];
  expect(listed.length).toBeGreaterThanOrEqual(3);
  expect(listed.length).toBeLessThanOrEqual(10);
});

test("a socket's own key-wide Retry-After is remembered while 31 other sockets answer after it; the 32nd used since forgets it, and sockets used before it never count", () => {
  // Socket A is refused for 100 s; B is refused at 1 s for 1 s, so the instance's key-wide
  // deadline is B's from then on: only what A was told on A itself makes A's request at 50 s
  // early. Each request has its own path, so no retry chain carries A's deadline.
  const earlyRequests = (before: number, between: number) => {
    const sockets = (prefix: string, count: number, at: number): Step[] =>
      Array.from({ length: count }, (_, index) => ({
        at,
        status: 200,
        path: `/pets?${prefix}=${index}`,
        connection: `http-${prefix}${index}`,
      }));
    const client = judge([
      ...sockets('before', before, 0),
      {
        at: 0,
        status: 429,
        retryAfter: '100',
        refused: true,
        path: '/pets?a',
        connection: 'http-a',
      },
      {
        at: 1000,
        status: 429,
        retryAfter: '1',
        refused: true,
        path: '/pets?b',
        connection: 'http-b',
      },
      ...sockets('between', between - 1, 3000),
      { at: 50_000, status: 200, path: '/pets?again', connection: 'http-a' },
    ]);
    // B's request is early against A's deadline on another socket (never settled): one of them.
    return client.rules.retryAfter.earlyRequests;
  };
  expect(earlyRequests(0, 31)).toBe(2);
  expect(earlyRequests(40, 31)).toBe(2);
  expect(earlyRequests(0, 32)).toBe(1);
  expect(earlyRequests(40, 32)).toBe(1);
});
