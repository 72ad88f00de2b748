/**
 * hono 4 + hono-rate-limiter 0.5 configured to conform while choosing differently from the
 * express server where the interface is silent: `standardHeaders: false` and the X-RateLimit-*
 * set from the info the limiter stores on the context (dist/index.js: `c.set(requestPropertyName,
 * info)`, limit, remaining, resetTime), a Retry-After given as an HTTP-date, a `limit` out of
 * range clamped into 1..100, and 404 for a malformed petId.
 */
import { Hono } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { honoPetRoutes, listenHono, perKeyAndPlan } from './hono-pet-store.ts';
import {
  type LimiterEnv,
  resetSeconds,
  setXRateLimitHeaders,
  xRateLimitHeaders,
} from './hono-x-rate-limit-headers.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startHonoRateLimiterServer(): Promise<RealServer> {
  const app = new Hono<LimiterEnv>();
  app.use(
    '/v1/*',
    rateLimiter<LimiterEnv>({
      ...perKeyAndPlan,
      standardHeaders: false,
      handler: (c) => {
        setXRateLimitHeaders(c);
        const info = c.get('rateLimit');
        c.header('Retry-After', new Date(resetSeconds(info) * 1000).toUTCString());
        c.header('Content-Type', 'application/json');
        return c.body(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')), 429);
      },
    }),
    xRateLimitHeaders,
  );
  app.route(
    '/v1',
    honoPetRoutes(createPetStore({ limitOutOfRange: 'clamp', malformedIdStatus: 404 })),
  );
  return listenHono(app);
}
