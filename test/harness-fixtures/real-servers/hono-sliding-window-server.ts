/**
 * hono 4 + hono-rate-limiter 0.5 with a store of the team's own (the library's `store` option
 * takes any object with `increment`, `decrement` and `resetKey`: dist/index.d.ts `Store`) that
 * counts a sliding window: the requests served in the last `windowMs`, not those since a fixed
 * start. X-RateLimit-Reset is when the oldest of them leaves the window (when Remaining next goes
 * up), and a refused request is not counted, so a caller that waits until then is served. The
 * interface does not say how a window is counted ("Requests remaining in the current window").
 */
import { Hono } from 'hono';
import { type ClientRateLimitInfo, rateLimiter, type Store } from 'hono-rate-limiter';
import { perMinuteLimitOf } from './api-keys.ts';
import { honoPetRoutes, listenHono, perKeyAndPlan } from './hono-pet-store.ts';
import {
  type LimiterEnv,
  resetSeconds,
  setXRateLimitHeaders,
  xRateLimitHeaders,
} from './hono-x-rate-limit-headers.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** A sliding log of served requests per key, holding at most `limitOf(key)` of them. */
function slidingLogStore(limitOf: (key: string) => number): Store<LimiterEnv> {
  const logs = new Map<string, number[]>();
  const current = (key: string, now: number): number[] => {
    const log = (logs.get(key) ?? []).filter((at) => at > now - windowMs);
    logs.set(key, log);
    return log;
  };
  return {
    increment(key): ClientRateLimitInfo {
      const now = Date.now();
      const log = current(key, now);
      // A refused request is not logged: it must not push the caller's next slot further away.
      const refused = log.length >= limitOf(key);
      if (!refused) log.push(now);
      const oldest = log[0] ?? now;
      return { totalHits: log.length + (refused ? 1 : 0), resetTime: new Date(oldest + windowMs) };
    },
    decrement(key) {
      current(key, Date.now()).pop();
    },
    resetKey(key) {
      logs.delete(key);
    },
  };
}

/** Starts the server. */
export function startHonoSlidingWindowServer(): Promise<RealServer> {
  const app = new Hono<LimiterEnv>();
  app.use(
    '/v1/*',
    rateLimiter<LimiterEnv>({
      ...perKeyAndPlan,
      standardHeaders: false,
      store: slidingLogStore(perMinuteLimitOf),
      handler: (c) => {
        setXRateLimitHeaders(c);
        const waitSeconds = resetSeconds(c.get('rateLimit')) - Math.floor(Date.now() / 1000);
        c.header('Retry-After', String(Math.max(1, waitSeconds)));
        c.header('Content-Type', 'application/json');
        return c.body(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')), 429);
      },
    }),
    xRateLimitHeaders,
  );
  app.route('/v1', honoPetRoutes(createPetStore()));
  return listenHono(app);
}
