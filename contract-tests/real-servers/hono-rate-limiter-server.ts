/**
 * hono 4 + hono-rate-limiter 0.5 configured to conform while choosing differently from the
 * express server where the interface is silent: `standardHeaders: false` and the X-RateLimit-*
 * set from the info the limiter stores on the context (dist/index.js: `c.set(requestPropertyName,
 * info)`, limit, remaining, resetTime), a Retry-After given as an HTTP-date, a `limit` out of
 * range clamped into 1..100, and 404 for a malformed petId.
 */
import type { Context, Next } from 'hono';
import { Hono } from 'hono';
import { type RateLimitInfo, rateLimiter } from 'hono-rate-limiter';
import { limiterKey, perMinuteLimit } from './api-keys.ts';
import { clientAddress, honoPetRoutes, listenHono } from './hono-pet-store.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** The reset time of the caller's window, rounded up to the second. */
function resetSeconds(info: RateLimitInfo): number {
  return Math.ceil((info.resetTime ?? new Date(Date.now() + windowMs)).getTime() / 1000);
}

/** What the limiter stores on the context (its `requestPropertyName`, default `rateLimit`). */
type LimiterEnv = { Variables: { rateLimit: RateLimitInfo } };

function setXRateLimitHeaders(c: Context<LimiterEnv>): void {
  const info = c.get('rateLimit');
  c.header('X-RateLimit-Limit', String(info.limit));
  c.header('X-RateLimit-Remaining', String(info.remaining));
  c.header('X-RateLimit-Reset', String(resetSeconds(info)));
}

/** Starts the server. */
export function startHonoRateLimiterServer(): Promise<RealServer> {
  const app = new Hono<LimiterEnv>();
  app.use(
    '/v1/*',
    rateLimiter<LimiterEnv>({
      windowMs,
      limit: (c) => perMinuteLimit(c.req.header('Authorization')),
      standardHeaders: false,
      keyGenerator: (c) => limiterKey(c.req.header('Authorization'), clientAddress(c)),
      handler: (c) => {
        setXRateLimitHeaders(c);
        const info = c.get('rateLimit');
        c.header('Retry-After', new Date(resetSeconds(info) * 1000).toUTCString());
        c.header('Content-Type', 'application/json');
        return c.body(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')), 429);
      },
    }),
    async (c: Context<LimiterEnv>, next: Next) => {
      setXRateLimitHeaders(c);
      await next();
    },
  );
  app.route(
    '/v1',
    honoPetRoutes(createPetStore({ limitOutOfRange: 'clamp', malformedIdStatus: 404 })),
  );
  return listenHono(app);
}
