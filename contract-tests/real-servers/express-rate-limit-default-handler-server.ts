/**
 * express 5 + express-rate-limit 8 with the library's default 429 answer: no `message` or
 * `handler` option, so dist/index.mjs's default handler sends the string "Too many requests,
 * please try again later." (`response.send(message)`: text/html), not a JSON Error body.
 * Otherwise conforming: legacy X-RateLimit-*, keyed by API key, limit by plan.
 */
import { createServer } from 'node:http';
import express from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { limiterKey, perMinuteLimit } from './api-keys.ts';
import { expressAuth, expressPetRoutes } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressRateLimitDefaultHandlerServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      windowMs,
      limit: (request) => perMinuteLimit(request.get('Authorization')),
      standardHeaders: false,
      legacyHeaders: true,
      keyGenerator: (request) =>
        limiterKey(request.get('Authorization'), ipKeyGenerator(request.ip ?? '')),
    }),
    expressAuth,
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
