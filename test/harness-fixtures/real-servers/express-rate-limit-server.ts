/**
 * express 5 + express-rate-limit 8, configured to conform: the README's `rateLimit({ windowMs,
 * limit, ... })` before every route, `legacyHeaders: true` (the library's X-RateLimit-Limit,
 * -Remaining and -Reset, Reset in Unix seconds: dist/index.mjs `setLegacyHeaders`) beside the
 * IETF `standardHeaders: 'draft-7'` (`RateLimit`, `RateLimit-Policy`: extra headers the
 * interface neither asks for nor forbids), a keyGenerator by API key, the limit by plan, and a
 * 429 whose body is an Error (`message` as JSON).
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { expressAuth, expressPetRoutes, perKeyAndPlan } from './express-pet-store.ts';
import { createPetStore, type PetStore } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server, serving `store` (default: a fresh store with the default choices). */
export function startExpressRateLimitServer(
  store: PetStore = createPetStore(),
): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      ...perKeyAndPlan,
      standardHeaders: 'draft-7',
      legacyHeaders: true,
      message: { code: 'rate_limited', message: 'Too many requests', status: 429 },
    }),
    expressAuth,
    expressPetRoutes(store),
  );
  return listenOnLoopback(createServer(app));
}
