import { expect, test } from 'vitest';
import { isBanned, recordAdmission, recordRefusal } from './ban.ts';
import { emptyUsage } from './rate-limit.ts';

const policy = { threshold: 3, durationSeconds: 60 };
const t0 = 1_000_000;

test('a key that keeps calling during Retry-After is banned at the threshold', () => {
  const usage = emptyUsage();
  const retryAt = t0 + 30_000;
  expect(recordRefusal(usage, retryAt, t0, policy)).toBe(false); // the first 429 is no violation
  expect(recordRefusal(usage, retryAt, t0 + 1, policy)).toBe(false);
  expect(recordRefusal(usage, retryAt, t0 + 2, policy)).toBe(false);
  expect(recordRefusal(usage, retryAt, t0 + 3, policy)).toBe(true);
  expect(usage.bannedUntil).toBe(t0 + 3 + 60_000);
  expect(isBanned(usage, t0 + 59_000)).toBe(true);
});

test('a ban lifts after its duration and clears the violations', () => {
  const usage = emptyUsage();
  for (let i = 0; i < 4; i++) recordRefusal(usage, t0 + 30_000, t0 + i, policy);
  expect(isBanned(usage, usage.bannedUntil)).toBe(false);
  expect(usage.violations).toBe(0);
  expect(usage.bannedUntil).toBe(0);
});

test('a client that waits for Retry-After each time is never banned', () => {
  const usage = emptyUsage();
  let now = t0;
  for (let i = 0; i < 20; i++) {
    const retryAt = now + 1_000;
    expect(recordRefusal(usage, retryAt, now, policy)).toBe(false);
    now = retryAt;
  }
  expect(usage.violations).toBe(0);
});

test('an admitted request resets the violation count', () => {
  const usage = emptyUsage();
  recordRefusal(usage, t0 + 30_000, t0, policy);
  recordRefusal(usage, t0 + 30_000, t0 + 1, policy);
  expect(usage.violations).toBe(1);
  recordAdmission(usage);
  expect(usage.violations).toBe(0);
});
