/**
 * express 5 + redis-gcra 0.3 (the Generic Cell Rate Algorithm) over an in-memory Redis
 * (ioredis-mock, through the wrapper redis-gcra's README allows: "a Redis-client-like wrapper
 * that exposes the defineCommand method and the Redis del method"). Per key, `burst` and `rate`
 * are the plan's limit and `period` the window (README "RedisGCRA({ redis, keyPrefix, burst,
 * rate, period, cost })"); `limit()` gives `remaining`, `retryIn` and `resetIn` (README
 * "Instance Functions"). X-RateLimit-Reset is now + resetIn, the theoretical arrival time, which
 * moves forward one emission interval with every request served: a moving Reset.
 */
import RedisGCRA from 'redis-gcra';
import { startExpressWindowServer } from './express-window-limiter.ts';
import { luaRedis } from './ioredis-mock-lua.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressGcraServer(): Promise<RealServer> {
  const limiter = RedisGCRA({ redis: luaRedis() });
  return startExpressWindowServer(async (key, limit) => {
    const now = Date.now();
    const result = await limiter.limit({ key, burst: limit, rate: limit, period: windowMs });
    return {
      allowed: !result.limited,
      remaining: result.remaining,
      resetAtMs: now + result.resetIn,
      retryAfterMs: result.retryIn,
    };
  });
}
