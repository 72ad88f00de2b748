/**
 * express 5 + express-rate-limit 8 with the README's header settings, `standardHeaders: 'draft-8',
 * legacyHeaders: false` (readme.md, Usage: "Disable the `X-RateLimit-*` headers"): answers carry
 * the IETF `RateLimit` / `RateLimit-Policy` fields (dist/index.mjs `setDraft8Headers`) and none
 * of the X-RateLimit-* the interface promises on every response. Otherwise as the conforming
 * express server: keyed by API key, limit by plan, a JSON Error on 429.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { expressAuth, expressPetRoutes, perKeyAndPlan } from './express-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressRateLimitIetfHeadersServer(): Promise<RealServer> {
  const app = express();
  app.use(
    '/v1',
    rateLimit({
      ...perKeyAndPlan,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      message: { code: 'rate_limited', message: 'Too many requests', status: 429 },
    }),
    expressAuth,
    expressPetRoutes(createPetStore()),
  );
  return listenOnLoopback(createServer(app));
}
