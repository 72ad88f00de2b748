/**
 * fastify 5 + rate-limiter-flexible 11 (`RateLimiterMemory`) in an onRequest hook that sets the
 * headers exactly as the README suggests ("You may want to set HTTP headers for the response"):
 * `"Retry-After": rateLimiterRes.msBeforeNext / 1000`, a fraction of seconds such as `2.417`,
 * which is neither delta-seconds nor an HTTP-date (RFC 9110, section 10.2.3). Otherwise
 * conforming: X-RateLimit-* on every answer, keyed by API key, a JSON Error on 429.
 */
import Fastify from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { planLimits } from '../../../contract-tests/contract/interface-facts.ts';
import { limiterKey } from './api-keys.ts';
import { registerFastifyPetStore } from './fastify-pet-store.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server; `sentRetryAfter` hears each Retry-After it sends (whole only by chance). */
export async function startFastifyRateLimiterFlexibleServer(
  sentRetryAfter: (seconds: number) => void = () => {},
): Promise<RealServer> {
  const opts = { points: planLimits.free.perMinute, duration: windowMs / 1000 };
  const rateLimiter = new RateLimiterMemory(opts);
  const app = Fastify();
  app.addHook('onRequest', async (request, reply) => {
    const headers = (rateLimiterRes: RateLimiterRes) => ({
      'Retry-After': rateLimiterRes.msBeforeNext / 1000,
      'X-RateLimit-Limit': opts.points,
      'X-RateLimit-Remaining': rateLimiterRes.remainingPoints,
      'X-RateLimit-Reset': Math.ceil((Date.now() + rateLimiterRes.msBeforeNext) / 1000),
    });
    try {
      const rateLimiterRes = await rateLimiter.consume(
        limiterKey(request.headers.authorization, request.ip),
      );
      const { 'Retry-After': _, ...quota } = headers(rateLimiterRes);
      reply.headers(quota);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const refused = headers(rejection);
      sentRetryAfter(refused['Retry-After']);
      return reply
        .headers(refused)
        .code(429)
        .type('application/json')
        .send(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')));
    }
  });
  registerFastifyPetStore(app, createPetStore());
  await app.ready();
  return listenOnLoopback(app.server);
}
