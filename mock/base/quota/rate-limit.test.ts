import { describe, expect, test } from 'vitest';
import { admitRequest, emptyUsage, peekRateLimit } from './rate-limit.ts';

const limits = { perMinute: 3, perDay: 5 };
const t0 = Date.UTC(2026, 0, 1, 12, 0, 10); // 10 s into a minute

describe('rate limit windows', () => {
  test('admits up to the per-minute limit, then refuses until the minute resets', () => {
    const usage = emptyUsage();
    const remaining = [1, 2, 3].map(() => admitRequest(usage, limits, t0));
    expect(remaining.map((a) => a.headers.remaining)).toEqual([2, 1, 0]);
    const refused = admitRequest(usage, limits, t0 + 1000);
    expect(refused.admitted).toBe(false);
    expect(refused.admitted === false && refused.retryAtMs).toBe(Date.UTC(2026, 0, 1, 12, 1, 0));
    expect(admitRequest(usage, limits, Date.UTC(2026, 0, 1, 12, 1, 0)).admitted).toBe(true);
  });

  test('reports X-RateLimit-Reset in unix seconds at the end of the reported window', () => {
    const usage = emptyUsage();
    const { headers } = admitRequest(usage, limits, t0);
    expect(headers).toEqual({
      limit: 3,
      remaining: 2,
      reset: Date.UTC(2026, 0, 1, 12, 1, 0) / 1000,
    });
  });

  test('switches to the day window when it has fewer requests left', () => {
    const usage = emptyUsage();
    for (const minute of [0, 1]) {
      for (let i = 0; i < 2; i++) admitRequest(usage, limits, t0 + minute * 60_000);
    }
    // 4 of 5 spent today, 0 of 3 this minute: the day window binds.
    const next = admitRequest(usage, limits, t0 + 2 * 60_000);
    expect(next.headers).toMatchObject({
      limit: 5,
      remaining: 0,
      reset: Date.UTC(2026, 0, 2) / 1000,
    });
    const refused = admitRequest(usage, limits, t0 + 3 * 60_000);
    expect(refused.admitted === false && refused.retryAtMs).toBe(Date.UTC(2026, 0, 2));
  });

  test('peeking never spends a request and remaining never goes negative', () => {
    const usage = emptyUsage();
    for (let i = 0; i < 10; i++) admitRequest(usage, limits, t0);
    expect(peekRateLimit(usage, limits, t0).remaining).toBe(0);
    expect(usage.minute.count).toBe(3);
  });
});
