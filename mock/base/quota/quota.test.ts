import { expect, test } from 'vitest';
import { decideQuota, inMemoryLedger } from './quota.ts';
import { emptyUsage, type KeyUsage } from './rate-limit.ts';

const policy = { threshold: 3, durationSeconds: 60 };
const limits = { perMinute: 2, perDay: 100 };
// A minute's start, so every request below falls in one minute window.
const t0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

test('a key is admitted up to its limit, then refused 429 until the window ends, and the third sent during Retry-After (the threshold) starts a ban', () => {
  const usage = emptyUsage();
  const verdicts = [0, 1, 2, 3, 4, 5].map((ms) => decideQuota(usage, limits, t0 + ms, policy));
  expect(verdicts.map((decision) => decision.verdict)).toEqual([
    'admitted',
    'admitted',
    'limited',
    'limited',
    'limited',
    'banned',
  ]);
  expect(verdicts[1]?.rateLimit).toEqual({ limit: 2, remaining: 0, reset: (t0 + 60_000) / 1000 });
  expect(verdicts[2]).toMatchObject({ retryAtMs: t0 + 60_000 });
  // The first 429 is no violation; the next three are, and the third of them starts the ban.
  expect(verdicts[5]).toEqual({
    verdict: 'banned',
    rateLimit: { limit: 2, remaining: 0, reset: Math.ceil((t0 + 5 + 60_000) / 1000) },
    retryAtMs: t0 + 5 + 60_000,
    started: true,
    violations: 3,
  });
  // A key banned already is refused as banned, and nothing starts.
  expect(decideQuota(usage, limits, t0 + 10, policy)).toMatchObject({
    verdict: 'banned',
    started: false,
    retryAtMs: t0 + 5 + 60_000,
  });
  // Once the ban ends, in a new window, the key is served and its count starts again.
  expect(decideQuota(usage, limits, t0 + 5 + 60_000, policy).verdict).toBe('admitted');
  expect(usage.violations).toBe(0);
});

test('the in-memory ledger decides on the record of each key, made on first use, and a clear forgets them all', () => {
  const records = new Map<string, KeyUsage>();
  const ledger = inMemoryLedger(records);
  expect(ledger.decide('a', limits, t0, policy)).toMatchObject({ verdict: 'admitted' });
  expect(ledger.decide('a', limits, t0, policy)).toMatchObject({ verdict: 'admitted' });
  expect(ledger.decide('a', limits, t0, policy)).toMatchObject({ verdict: 'limited' });
  expect(ledger.decide('b', limits, t0, policy)).toMatchObject({ verdict: 'admitted' });
  expect(records.get('a')?.minute.count).toBe(2);
  ledger.clear();
  expect(records.size).toBe(0);
});
