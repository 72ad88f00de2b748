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

/** Requests with a valid key decided late by the busy server: the third to the seventh. */
const late = { from: 3, to: 7 } as const;

/** Waits until the clock is 0.9 s into a second: when a machine busy elsewhere runs the server. */
function untilLateInASecond(): Promise<void> {
  const wait = (900 - (Date.now() % 1000) + 1000) % 1000 || 1000;
  return new Promise((resolve) => setTimeout(resolve, wait));
}

/**
 * Starts the server. `busy`: five requests in a row with a valid key are decided up to a second
 * after they arrive, each at the same moment of a second, as on a machine whose other work
 * delays the server: GCRA hands a request back every emission interval meanwhile, so Remaining
 * stays put across them while Reset stays a rounding away.
 */
export function startExpressGcraServer(options: { busy?: boolean } = {}): Promise<RealServer> {
  const limiter = RedisGCRA({ redis: luaRedis() });
  let keyed = 0;
  return startExpressWindowServer(async (key, limit) => {
    if (!key.startsWith('address:')) keyed += 1;
    if (options.busy === true && keyed >= late.from && keyed <= late.to) await untilLateInASecond();
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
