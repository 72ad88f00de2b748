/**
 * The express middleware a team writes around a limiter library that only decides (allowed or
 * not, how much is left, when it refills): it keys by API key (the client's address without a
 * valid key), writes X-RateLimit-Limit, -Remaining and -Reset on every answer, and answers a
 * refused request with 429, Retry-After in whole seconds and an Error body. Each server file
 * supplies the decision from its library, configured as that library's README shows.
 */
import { createServer } from 'node:http';
import express, { type RequestHandler } from 'express';
import { limiterKey, perMinuteLimitOf } from './api-keys.ts';
import { expressAuth, expressPetRoutes } from './express-pet-store.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** What a limiter library decided for one request. */
interface LimiterDecision {
  readonly allowed: boolean;
  readonly remaining: number;
  /** When the caller's limit is whole again, as the library tells it (epoch ms). */
  readonly resetAtMs: number;
  /** How long a refused caller must wait, in ms. */
  readonly retryAfterMs: number;
}

/** Decides for the caller `key`, whose plan allows `limit` requests a window. */
export type Decide = (key: string, limit: number) => LimiterDecision | Promise<LimiterDecision>;

function windowLimiter(decide: Decide, limitOf: (key: string) => number): RequestHandler {
  return async (request, response, next) => {
    const key = limiterKey(request.get('Authorization'), request.ip ?? '');
    const limit = limitOf(key);
    const decision = await decide(key, limit);
    response.set('X-RateLimit-Limit', String(limit));
    response.set('X-RateLimit-Remaining', String(Math.max(0, Math.floor(decision.remaining))));
    response.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAtMs / 1000)));
    if (decision.allowed) return next();
    response.set('Retry-After', String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
    response
      .status(429)
      .type('application/json')
      .send(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')));
  };
}

/**
 * Starts express with `decide` before auth and the routes (default limits: the plans' per-minute
 * limits).
 */
export function startExpressWindowServer(
  decide: Decide,
  limitOf: (key: string) => number = perMinuteLimitOf,
): Promise<RealServer> {
  const app = express();
  app.use('/v1', windowLimiter(decide, limitOf), expressAuth, expressPetRoutes(createPetStore()));
  return listenOnLoopback(createServer(app));
}
