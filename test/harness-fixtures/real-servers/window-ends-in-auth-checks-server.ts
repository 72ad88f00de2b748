/**
 * A conforming fixed window whose first window ends at the first request without a valid key:
 * the minute that runs out while the harness's auth checks are sending, the worst moment for
 * rateLimit.othersNotCounted, whose evidence is the gap those requests fill between two answers
 * to the key. Each window counts every caller from zero and ends a window's length after the last
 * one (X-RateLimit-Reset jumps a whole window), so that gap shows no comparable readings; the
 * harness still owes a verdict from the gaps its other auth checks fill.
 */
import { startExpressWindowServer } from './express-window-limiter.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startWindowEndsInAuthChecksServer(): Promise<RealServer> {
  let windowEndsAt = Date.now() + windowMs;
  let cutShort = false;
  const counts = new Map<string, number>();
  return startExpressWindowServer((key, limit) => {
    const now = Date.now();
    const keyless = key.startsWith('address:');
    if ((keyless && !cutShort) || now >= windowEndsAt) {
      cutShort ||= keyless;
      windowEndsAt = Math.max(windowEndsAt, now) + windowMs;
      counts.clear();
    }
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    return {
      allowed: count <= limit,
      remaining: limit - Math.min(count, limit),
      resetAtMs: windowEndsAt,
      retryAfterMs: windowEndsAt - now,
    };
  });
}
