import { expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { testExchange } from '../http/test-exchange.ts';
import { observe } from '../runner/observation.ts';
import type { RunFacts } from './check.ts';
import { createPetUniqueIds } from './observers/create-pet-unique-ids.ts';
import { headersRateLimitResetIsTime } from './observers/headers-rate-limit-reset-is-time.ts';
import { rateLimitRemainingDecreases } from './observers/rate-limit-remaining-decreases.ts';
import { rateLimitRetryAfterOn429 } from './observers/rate-limit-retry-after-on-429.ts';

const facts: RunFacts = { writes: true, rateLimitRun: false };

/** An authenticated 201 in the window ending at 1000000060, sent and answered at the given times. */
function created(remaining: number, sentAt: number, answeredAt: number): Exchange {
  return testExchange({
    status: 201,
    text: '{}',
    spec: { method: 'POST', operationId: 'createPet' },
    sentAt,
    answeredAt,
    headers: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': '1000000060',
    },
  });
}

test('remainingDecreases flags a Remaining that stays put between one answer and the next request', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  expect(observer.observe(created(49, 2, 3))).toBeUndefined();
  expect(observer.observe(created(49, 4, 5))).toMatch(/stayed at 49 \(was 49\)/);
});

test('remainingDecreases does not compare requests in flight together, whose answers may cross', () => {
  const observer = rateLimitRemainingDecreases.start(facts);
  expect(observer.observe(created(50, 0, 1))).toBeUndefined();
  // Three creates sent at once; the server handled them as 49, 48, 47 and the answers crossed.
  expect(observer.observe(created(48, 2, 5))).toBeUndefined();
  expect(observer.observe(created(49, 2, 6))).toBeUndefined();
  expect(observer.observe(created(47, 2, 7))).toBeUndefined();
  // The next request, sent after all three were answered, is compared again.
  expect(observer.observe(created(47, 8, 9))).toMatch(/stayed at 47 \(was 47\)/);
  expect(observer.judged()).toBeGreaterThan(0);
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
