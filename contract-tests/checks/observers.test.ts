import { expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { testExchange } from '../http/test-exchange.ts';
import { observe } from '../runner/observation.ts';
import type { RunFacts } from './check.ts';
import { createPetUniqueIds } from './observers/create-pet-unique-ids.ts';
import { headersRateLimitResetIsTime } from './observers/headers-rate-limit-reset-is-time.ts';
import { rateLimitOthersNotCounted } from './observers/rate-limit-others-not-counted.ts';
import { rateLimitRemainingDecreases } from './observers/rate-limit-remaining-decreases.ts';
import { rateLimitRetryAfterOn429 } from './observers/rate-limit-retry-after-on-429.ts';

const facts: RunFacts = { writes: true, rateLimitRun: false };

/** An authenticated 201 in the window ending at `reset`, sent and answered at the given times. */
function created(
  remaining: number,
  sentAt: number,
  answeredAt: number,
  reset = 1000000060,
): Exchange {
  return testExchange({
    status: 201,
    text: '{}',
    spec: { method: 'POST', operationId: 'createPet' },
    sentAt,
    answeredAt,
    headers: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    },
  });
}

test('remainingDecreases flags a Remaining that stays put across 3 requests served one after another', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  expect(observer.observe(created(49, 2, 3))).toBeUndefined();
  // A refill may hand back one request between two answers: one or two stalls prove nothing.
  expect(observer.observe(created(49, 4, 5))).toBeUndefined();
  expect(observer.observe(created(49, 6, 7))).toBeUndefined();
  expect(observer.observe(created(49, 8, 9))).toMatch(
    /stayed at 49 across 3 requests with the key served one after another within 1 ms, from the first one's request to the last one's answer \(one window: X-RateLimit-Reset stayed 1000000060/,
  );
});

/** An answer to the key sent `second`s into 2026, its Remaining and how far ahead its Reset lies. */
function readingAt(second: number, remaining: number, resetAhead: number, limit = 60): Exchange {
  const at = Date.UTC(2026, 0, 1) + second * 1000;
  return testExchange({
    sentAt: second * 2,
    answeredAt: second * 2 + 1,
    sentAtEpochMs: at,
    headers: {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(at / 1000 + resetAhead),
    },
  });
}

test('remainingDecreases forgives stalls a refill could explain: a client slower than a full bucket refills', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  // A token bucket one request short of full, its Reset a second ahead: requests a second apart
  // are all handed back before the next.
  for (let second = 0; second < 5; second++)
    expect(observer.observe(readingAt(second, 59, 1))).toBeUndefined();
});

test('remainingDecreases does not forgive a slow client a Reset far ahead: a fixed window hands nothing back before it', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  expect(observer.observe(readingAt(0, 9999, 40, 10_000))).toBeUndefined();
  expect(observer.observe(readingAt(1, 9999, 39, 10_000))).toBeUndefined();
  expect(observer.observe(readingAt(2, 9999, 38, 10_000))).toBeUndefined();
  expect(observer.observe(readingAt(3, 9999, 37, 10_000))).toMatch(
    /stayed at 9999 across 3 requests/,
  );
});

test("remainingDecreases forgives GCRA's stalls when its Reset is a rounding away: the answers of a 60-a-10 s limiter on a busy machine", () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  // redis-gcra with burst 60, rate 60, period 10 s (real-servers/express-gcra-server.ts): one
  // request back every 167 ms, Reset the theoretical arrival time rounded up to the second. On a
  // loaded machine the server decides later than the harness sends, and Remaining stays at 58
  // across three requests in 844 ms. The same answers a staging behind a GCRA gives a slow runner.
  const base = 1795847410056;
  const answers: [sentMs: number, reset: number][] = [
    [0, 1795847411],
    [281, 1795847411],
    [562, 1795847411],
    [844, 1795847412],
  ];
  for (const [sentMs, reset] of answers)
    expect(
      observer.observe(
        testExchange({
          sentAt: sentMs,
          answeredAt: sentMs + 5,
          sentAtEpochMs: base + sentMs,
          headers: {
            'X-RateLimit-Limit': '60',
            'X-RateLimit-Remaining': '58',
            'X-RateLimit-Reset': String(reset),
          },
        }),
      ),
    ).toBeUndefined();
});

test('remainingDecreases passes a moving window that refills now and then, and says how it read it', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  // A token bucket: Reset moves forward with the requests, and a refill now and then.
  const steps: [number, number][] = [
    [50, 60],
    [49, 60],
    [49, 61],
    [48, 61],
    [47, 62],
    [47, 62],
    [46, 63],
  ];
  for (const [index, [remaining, reset]] of steps.entries())
    expect(
      observer.observe(created(remaining, index * 2, index * 2 + 1, 1000000000 + reset)),
    ).toBeUndefined();
  expect(observer.judged()).toBe(4);
  expect(observer.note?.()).toMatch(/one moving window: X-RateLimit-Reset moved forward 1 s/);
});

test('remainingDecreases does not compare requests in flight together, whose answers may cross', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  // Three creates sent at once; the server handled them as 49, 48, 47 and the answers crossed.
  expect(observer.observe(created(48, 2, 5))).toBeUndefined();
  expect(observer.observe(created(49, 2, 6))).toBeUndefined();
  expect(observer.observe(created(47, 2, 7))).toBeUndefined();
  // The next requests, sent after all three were answered, are compared again.
  expect(observer.observe(created(47, 8, 9))).toBeUndefined();
  expect(observer.observe(created(47, 10, 11))).toBeUndefined();
  expect(observer.observe(created(47, 12, 13))).toMatch(/stayed at 47 across 3 requests/);
});

/** An answer to the key, or without a key (401), with the key's window headers. */
function answer(remaining: number, reset: number, sentAt: number, keyless = false): Exchange {
  return testExchange({
    status: keyless ? 401 : 200,
    authenticated: !keyless,
    spec: { auth: keyless ? 'none' : 'key' },
    sentAt,
    answeredAt: sentAt + 1,
    headers: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    },
  });
}

test('othersNotCounted judges a moving window by Remaining: a fall of one across keyless requests passes, saying what it inferred', () => {
  const observation = observe([rateLimitOthersNotCounted], facts);
  observation.see(answer(58, 1000000061, 0));
  for (let sent = 2; sent < 16; sent += 2) observation.see(answer(60, 1000000060, sent, true));
  // Reset moved forward with the key's request (a sliding window whose Reset follows the requests).
  observation.see(answer(57, 1000000062, 16));
  const [verdict] = observation.verdicts();
  expect(verdict).toMatchObject({ status: 'pass' });
  expect(verdict?.reason).toMatch(
    /one moving window: X-RateLimit-Reset moved forward 1 s with the requests, X-RateLimit-Remaining 58 → 57 \(no refill\) across 7 without a key/,
  );
});

test("othersNotCounted fails a fall larger than the key's request, whatever Reset did", () => {
  const observation = observe([rateLimitOthersNotCounted], facts);
  observation.see(answer(58, 1000000061, 0));
  observation.see(answer(60, 1000000060, 2, true));
  observation.see(answer(55, 1000000062, 4));
  expect(observation.verdicts()[0]?.failure?.message).toMatch(/fell from 58 to 55/);
});

test('othersNotCounted does not judge a window that turned over: a sliding counter may start the next one lower', () => {
  const observation = observe([rateLimitOthersNotCounted], facts);
  observation.see(answer(38, 1000000060, 0));
  observation.see(answer(60, 1000000060, 2, true));
  observation.see(answer(24, 1000000070, 4));
  expect(observation.verdicts()[0]).toMatchObject({
    skip: 'not-exercised',
    reason: expect.stringMatching(
      /further than the requests in between move a window: it turned over/,
    ),
  });
});

test("othersNotCounted stuck at Remaining 0 or 1 is not exercised: no room to show others' requests", () => {
  const observation = observe([rateLimitOthersNotCounted], facts);
  observation.see(answer(1, 1000000061, 0));
  observation.see(answer(60, 1000000060, 2, true));
  observation.see(answer(0, 1000000061, 4));
  expect(observation.verdicts()[0]).toMatchObject({
    status: 'skip',
    skip: 'not-exercised',
    reason: expect.stringMatching(/X-RateLimit-Remaining was 1: no room/),
  });
});

test('othersNotCounted across a refill is not exercised: Remaining rose', () => {
  const observation = observe([rateLimitOthersNotCounted], facts);
  observation.see(answer(3, 1000000060, 0));
  observation.see(answer(60, 1000000060, 2, true));
  observation.see(answer(59, 1000000120, 4));
  expect(observation.verdicts()[0]).toMatchObject({
    skip: 'not-exercised',
    reason: expect.stringMatching(/X-RateLimit-Remaining 3 → 59: the window refilled/),
  });
});

/** An answer with the three headers, sent at 2026-01-01T00:00:00Z. */
function withReset(reset: string): Exchange {
  return testExchange({
    headers: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '5',
      'X-RateLimit-Reset': reset,
    },
  });
}

const sentSeconds = Date.UTC(2026, 0, 1) / 1000;

test('rateLimitResetIsTime accepts a Reset between the request and a day after it, give or take 5 s of skew', () => {
  for (const reset of [sentSeconds - 5, sentSeconds, sentSeconds + 60, sentSeconds + 86_405])
    expect(headersRateLimitResetIsTime.judge(withReset(String(reset)), facts)).toBeUndefined();
});

test('rateLimitResetIsTime refuses a Reset given as seconds until the reset, a past time, or milliseconds', () => {
  expect(headersRateLimitResetIsTime.judge(withReset('45'), facts)).toMatch(
    /X-RateLimit-Reset 45 is before the request/,
  );
  expect(headersRateLimitResetIsTime.judge(withReset(String(sentSeconds - 3600)), facts)).toMatch(
    /is before the request/,
  );
  expect(headersRateLimitResetIsTime.judge(withReset(String(sentSeconds * 1000)), facts)).toMatch(
    /more than a day after the request/,
  );
  expect(headersRateLimitResetIsTime.judge(withReset(String(sentSeconds + 86_406)), facts)).toMatch(
    /more than a day after/,
  );
});

test('an observer with nothing to judge is not exercised, unless the flags asked for what it judges', () => {
  const quiet = observe([rateLimitRetryAfterOn429, createPetUniqueIds], facts);
  quiet.see(withReset(String(sentSeconds + 60)));
  const [retryAfter, uniqueIds] = quiet.verdicts();
  expect(retryAfter).toMatchObject({ status: 'skip', skip: 'not-exercised' });
  expect(retryAfter?.reason).toMatch(/--rate-limits provokes one/);
  // Writes were on, so a run that created nothing could not judge unique ids.
  expect(uniqueIds).toMatchObject({ status: 'skip', skip: 'could-not-run' });

  const asked = observe([rateLimitRetryAfterOn429], { ...facts, rateLimitRun: true });
  asked.see(withReset(String(sentSeconds + 60)));
  const [verdict] = asked.verdicts();
  expect(verdict).toMatchObject({ status: 'skip', skip: 'could-not-run' });
  expect(verdict?.reason).toMatch(/although --rate-limits asked for one/);
});

test('an observer reports the first exchange that broke its rule', () => {
  const observation = observe([rateLimitRetryAfterOn429], facts);
  observation.see(testExchange({ status: 429, headers: { 'Retry-After': 'soon' } }));
  observation.see(testExchange({ status: 429, headers: {} }));
  const [verdict] = observation.verdicts();
  expect(verdict?.status).toBe('fail');
  expect(verdict?.failure?.message).toBe('a 429 with Retry-After "soon"');
});
