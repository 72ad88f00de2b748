/**
 * express 5 + express-rate-limit 8 mounted after the auth middleware (`app.use(auth);
 * app.use(limiter)`, a common order: only callers with a key are counted). A request refused by
 * auth never reaches the limiter, so its 401 carries no X-RateLimit-* (dist/index.mjs sets the
 * headers only in the limiter's own middleware), although the interface promises them on every
 * response. Otherwise as the conforming express server.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { knownKey, perMinuteLimit } from './api-keys.ts';
import { expressAuth, expressPetRoutes } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressAuthBeforeLimiterServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    expressAuth,
    rateLimit({
      windowMs,
      limit: (request) => perMinuteLimit(request.get('Authorization')),
      standardHeaders: false,
      legacyHeaders: true,
      // Only requests with a known key get here.
      keyGenerator: (request) => knownKey(request.get('Authorization')) ?? '',
      message: { code: 'rate_limited', message: 'Too many requests', status: 429 },
    }),
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
