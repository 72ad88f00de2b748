/**
 * express 5 + @upstash/ratelimit 2 with `Ratelimit.slidingWindow(limit, window)` (README
 * "Sliding Window": the previous window's count weighted by how much of it still overlaps), over
 * an in-memory Redis (ioredis-mock; the library calls `redis.evalsha` / `redis.eval`,
 * dist/index.mjs safeEval). One Ratelimit per plan (README "Usage": `new Ratelimit({ redis,
 * limiter })`, `limit(identifier)` gives `success`, `limit`, `remaining`, `reset`). The library's
 * `reset` is the end of the current fixed window, sent as X-RateLimit-Reset; Remaining may stay
 * or rise between two requests as the previous window's weight fades. A refused caller is told
 * to come back when the requests counted so far have left the window: the window after the next
 * begins (Retry-After).
 */
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { startExpressWindowServer } from './express-window-limiter.ts';
import { luaRedis } from './ioredis-mock-lua.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressSlidingCounterServer(): Promise<RealServer> {
  const redis = luaRedis() as unknown as Redis;
  const limiters = new Map<number, Ratelimit>();
  return startExpressWindowServer(async (key, limit) => {
    let limiter = limiters.get(limit);
    if (limiter === undefined) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(limit, `${windowMs} ms`),
        prefix: `plan-${limit}`,
        analytics: false,
        ephemeralCache: false,
      });
      limiters.set(limit, limiter);
    }
    const result = await limiter.limit(key);
    return {
      allowed: result.success,
      remaining: result.remaining,
      resetAtMs: result.reset,
      retryAfterMs: result.reset + windowMs - Date.now(),
    };
  });
}
