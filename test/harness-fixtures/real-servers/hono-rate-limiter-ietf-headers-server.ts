/**
 * hono 4 + hono-rate-limiter 0.5 with the library's defaults but the required keyGenerator (by
 * API key) and the limit by plan: dist/index.js `standardHeaders = "draft-6"` sends
 * RateLimit-Policy / -Limit / -Remaining / -Reset (Reset in seconds left), and no X-RateLimit-*
 * (the library has no option for them), although the interface promises them on every response.
 */
import { Hono } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { honoPetRoutes, listenHono, perKeyAndPlan } from './hono-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startHonoRateLimiterIetfHeadersServer(): Promise<RealServer> {
  const app = new Hono();
  app.use(
    '/v1/*',
    rateLimiter({
      ...perKeyAndPlan,
    }),
  );
  app.route('/v1', honoPetRoutes(createPetStore()));
  return listenHono(app);
}
