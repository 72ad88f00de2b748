/**
 * koa 3 + rate-limiter-flexible 11 (`RateLimiterMemory`, one per plan), configured to conform
 * while choosing differently where the interface is silent: a temporary ban (`blockDuration`,
 * README "Block for N seconds, if consumed more than points"), with Retry-After and
 * X-RateLimit-Reset telling when it ends; the README's headers ("You may want to set HTTP headers
 * for the response") with Retry-After rounded up to whole seconds; unknown fields of a NewPet
 * kept on the pet.
 */
import Koa from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { limiterKey, perMinuteLimit } from './api-keys.ts';
import { listenKoa, useKoaPetStore } from './koa-pet-store.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/**
 * How long a key that went past its limit stays refused, in seconds: longer than a window, so
 * the ban, not the window, decides when the caller is served again.
 */
const banSeconds = windowMs / 1000 + 2;

/** Starts the server. */
export function startKoaRateLimiterFlexibleServer(): Promise<RealServer> {
  const limiters = new Map<number, RateLimiterMemory>();
  const limiterFor = (points: number): RateLimiterMemory => {
    const limiter =
      limiters.get(points) ??
      new RateLimiterMemory({ points, duration: windowMs / 1000, blockDuration: banSeconds });
    limiters.set(points, limiter);
    return limiter;
  };
  const app = new Koa();
  app.use(async (ctx, next) => {
    const points = perMinuteLimit(ctx.get('Authorization'));
    const setHeaders = (result: RateLimiterRes) => {
      ctx.set('X-RateLimit-Limit', String(points));
      ctx.set('X-RateLimit-Remaining', String(result.remainingPoints));
      ctx.set('X-RateLimit-Reset', String(Math.ceil((Date.now() + result.msBeforeNext) / 1000)));
    };
    let result: RateLimiterRes;
    try {
      result = await limiterFor(points).consume(limiterKey(ctx.get('Authorization'), ctx.ip));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setHeaders(rejection);
      ctx.set('Retry-After', String(Math.ceil(rejection.msBeforeNext / 1000)));
      ctx.status = 429;
      ctx.type = 'application/json';
      ctx.body = answerText(errorAnswer(429, 'rate_limited', 'Too many requests'));
      return;
    }
    setHeaders(result);
    await next();
  });
  useKoaPetStore(app, createPetStore({ keepUnknownFields: true }));
  return listenKoa(app);
}
