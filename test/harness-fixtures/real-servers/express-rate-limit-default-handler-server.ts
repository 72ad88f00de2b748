/**
 * express 5 + express-rate-limit 8 with the library's default 429 answer: no `message` or
 * `handler` option, so dist/index.mjs's default handler sends the string "Too many requests,
 * please try again later." (`response.send(message)`: text/html), not a JSON Error body.
 * Otherwise conforming: legacy X-RateLimit-*, keyed by API key, limit by plan.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { expressAuth, expressPetRoutes, perKeyAndPlan } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressRateLimitDefaultHandlerServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      ...perKeyAndPlan,
      standardHeaders: false,
      legacyHeaders: true,
    }),
    expressAuth,
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
