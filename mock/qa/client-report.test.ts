/**
 * The client report's rules on hand-made event sequences: what counts as early, which waits are
 * the client's own, what "growing" allows (jitter), how bans are counted, both Retry-After
 * formats. The real clients are in client-compliance.test.ts.
 */
import { expect, test } from 'vitest';
import { createClientReporter } from './client-report.ts';

const t0 = Date.UTC(2026, 5, 1, 12);

/** A reporter fed one client's answers: [arrived ms after t0, status, Retry-After?, code?]. */
function judge(events: readonly (readonly [number, number, string?, string?])[]) {
  const reporter = createClientReporter();
  for (const [at, status, retryAfter, errorCode] of events) {
    reporter.record({
      keyId: 'demo-free',
      clientId: 'app',
      method: 'GET',
      url: new URL('http://127.0.0.1:4010/v1/pets'),
      arrivedAt: t0 + at,
      answeredAt: t0 + at,
      status,
      errorCode,
      retryAfter,
      chaos: false,
      dropped: false,
    });
  }
  const [client] = reporter.report(t0, []).clients;
  if (client === undefined) throw new Error('no client recorded');
  return client;
}

test('a request before Retry-After elapsed is early, by how much; one at the deadline is not', () => {
  const early = judge([
    [0, 429, '2'],
    [1500, 429, '2'],
    [3500, 200],
  ]);
  expect(early.rules.retryAfter).toEqual({
    verdict: 'fail',
    answersWithRetryAfter: 2,
    earlyRequests: 1,
    maxEarlyMs: 500,
  });
  expect(early.problems[0]).toBe(
    'Retry-After: 1 request(s) came before Retry-After elapsed (the earliest 0.50 s early)',
  );
  const onTime = judge([
    [0, 429, '2'],
    [2000, 200],
  ]);
  expect(onTime.rules.retryAfter.verdict).toBe('pass');
  expect(onTime.verdict).toBe('pass');
});

test('an HTTP-date Retry-After is a deadline of its own', () => {
  const date = new Date(t0 + 5000).toUTCString();
  expect(
    judge([
      [0, 503, date],
      [4000, 200],
    ]).rules.retryAfter.earlyRequests,
  ).toBe(1);
  expect(
    judge([
      [0, 503, date],
      [5000, 200],
    ]).rules.retryAfter.earlyRequests,
  ).toBe(0);
});

test('waits that double with jitter pass; fixed and shrinking waits fail', () => {
  // Failures without Retry-After: every wait is the client's own choice.
  const doubling = judge([
    [0, 500],
    [1100, 500], // 1.1 s
    [1100 + 1700, 502], // 1.7 s (doubling of 1.1 minus jitter: 1.55x)
    [2800 + 4100, 504], // 4.1 s
    [6900 + 7000, 200],
  ]);
  expect(doubling.rules.backoff).toMatchObject({ verdict: 'pass', retries: 4, judgedPairs: 3 });
  const fixed = judge([
    [0, 500],
    [2000, 500],
    [4000, 500],
    [6000, 200],
  ]);
  expect(fixed.rules.backoff).toMatchObject({
    verdict: 'fail',
    judgedPairs: 2,
    nonGrowingPairs: 2,
    firstNonGrowing: [2000, 2000],
  });
  expect(fixed.problems).toEqual([
    'backoff: 2 of 2 pair(s) of successive waits did not grow (first: 2.00 s then 2.00 s; each wait must be at least 1.2x the one before)',
  ]);
  // 1.1x growth is below the 1.2x tolerance.
  expect(
    judge([
      [0, 503],
      [1000, 503],
      [2100, 200],
    ]).rules.backoff.verdict,
  ).toBe('fail');
});

test('a wait Retry-After asked for is the server choice, not judged for growth', () => {
  const obeying = judge([
    [0, 503, '1'],
    [1000, 503, '1'],
    [2100, 503, '1'], // 1.1 s: Retry-After plus under 250 ms
    [3100, 200],
  ]);
  expect(obeying.rules.backoff).toMatchObject({ verdict: 'not-seen', judgedPairs: 0 });
  expect(obeying.rules.backoff.waits.map((w) => w.own)).toEqual([false, false, false]);
  expect(obeying.verdict).toBe('pass');
});

test('a success ends the episode: waits of two episodes are never compared', () => {
  const client = judge([
    [0, 500],
    [4000, 200],
    [5000, 500],
    [6000, 200],
  ]);
  expect(client.rules.backoff).toMatchObject({ judgedPairs: 0, retries: 2 });
});

test('a ban counts once however many banned answers follow', () => {
  const client = judge([
    [0, 429, '60', 'rate_limited'],
    [10, 429, '300', 'temporarily_banned'],
    [20, 429, '300', 'temporarily_banned'],
    [400_000, 200],
    [400_010, 429, '60', 'rate_limited'],
    [400_020, 429, '300', 'temporarily_banned'],
  ]);
  expect(client.rules.ban).toEqual({ verdict: 'fail', bans: 2 });
  expect(client.verdict).toBe('fail');
});

test('a client that met no failure has no evidence either way', () => {
  const client = judge([
    [0, 200],
    [10, 201],
  ]);
  expect(client.verdict).toBe('no-evidence');
  expect(client.rules.retryAfter.verdict).toBe('not-seen');
});

test('past 64 clients on one key, later ones share one entry', () => {
  const reporter = createClientReporter();
  for (let i = 0; i < 70; i++)
    reporter.record({
      keyId: 'demo-free',
      clientId: `app-${i}`,
      method: 'GET',
      url: new URL('http://127.0.0.1:4010/v1/pets'),
      arrivedAt: t0 + i,
      answeredAt: t0 + i,
      status: 200,
      errorCode: undefined,
      retryAfter: undefined,
      chaos: false,
      dropped: false,
    });
  const ids = reporter.report(t0, []).clients.map((c) => c.clientId);
  expect(ids).toHaveLength(65);
  expect(ids.at(-1)).toBe('(other clients)');
  expect(reporter.report(t0, []).clients.at(-1)?.requests).toBe(6);
});
