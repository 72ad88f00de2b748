/**
 * koa 3 + koa-ratelimit 6 with the README's memory-driver configuration (`driver: 'memory', db:
 * new Map(), duration, errorMessage, id, headers: { remaining, reset, total }, max`), keyed by
 * API key. Its memory limiter keeps the reset as fractional Unix seconds (limiter/memory.js:
 * `reset: reset / 1e6` from a microsecond clock), which index.js sends as X-RateLimit-Reset
 * (e.g. `1795000000.123456`), not an integer; its 429 body is the `errorMessage` text
 * (index.js: `ctx.body = message`), not an Error.
 */
import Koa from 'koa';
import ratelimit from 'koa-ratelimit';
import { planLimits } from '../../../contract-tests/contract/interface-facts.ts';
import { limiterKey } from './api-keys.ts';
import { listenKoa, useKoaPetStore } from './koa-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startKoaRatelimitServer(): Promise<RealServer> {
  const app = new Koa();
  app.use(
    ratelimit({
      driver: 'memory',
      db: new Map(),
      duration: windowMs,
      errorMessage: 'Sometimes You Just Have to Slow Down.',
      id: (ctx) => limiterKey(ctx.get('Authorization'), ctx.ip),
      headers: {
        remaining: 'X-RateLimit-Remaining',
        reset: 'X-RateLimit-Reset',
        total: 'X-RateLimit-Limit',
      },
      disableHeader: false,
      max: planLimits.free.perMinute,
    }),
  );
  useKoaPetStore(app, createPetStore());
  return listenKoa(app);
}
