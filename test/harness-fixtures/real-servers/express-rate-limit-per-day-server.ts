/**
 * express 5 + express-rate-limit 8 limiting each key per day (the plans' second column: Free
 * 1,000, Pro 10,000), with the conforming express server's legacy X-RateLimit-* (Reset the
 * Unix time the day's window ends) and a JSON Error on 429. X-RateLimit-Limit is the per-day
 * limit, which the interface allows ("Requests per day"; X-RateLimit-Limit "Limit applying to the
 * caller"). The "day" lasts `dayMs` here, so a test that spends it honours its Retry-After in
 * seconds.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { perDayLimit } from './api-keys.ts';
import {
  expressAuth,
  expressPetRoutes,
  legacyHeadersAndErrorBody,
  perKeyAndPlan,
} from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** The length of the servers' "day": long enough for a run to spend 1,000 requests in it. */
const dayMs = 20_000;

/** Starts the server. */
export function startExpressRateLimitPerDayServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      ...perKeyAndPlan,
      windowMs: dayMs,
      limit: (request) => perDayLimit(request.get('Authorization')),
      ...legacyHeadersAndErrorBody,
    }),
    expressAuth,
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
