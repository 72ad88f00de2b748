/**
 * express 5 + express-rate-limit 8 keyed as the library keys by default: by client address (no
 * `keyGenerator`, so dist/index.mjs's default `ipKeyGenerator(request.ip)`), with the Free limit
 * for everyone. Every request from one machine (without a key, with an unknown key, with another
 * key) draws from one window, and a Pro key is told X-RateLimit-Limit 60. Legacy X-RateLimit-*
 * headers and a JSON Error on 429, as the conforming express server.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { planLimits } from '../../../contract-tests/contract/interface-facts.ts';
import { expressAuth, expressPetRoutes, legacyHeadersAndErrorBody } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressRateLimitByAddressServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      windowMs,
      limit: planLimits.free.perMinute,
      ...legacyHeadersAndErrorBody,
    }),
    expressAuth,
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
