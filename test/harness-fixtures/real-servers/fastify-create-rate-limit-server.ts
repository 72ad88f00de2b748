/**
 * fastify 5 + @fastify/rate-limit 11 used through `fastify.createRateLimit()` (README, "a custom
 * limiter function": `global: false`, then `const limit = await checkRateLimit(request)`),
 * configured to conform while choosing differently where the interface is silent: the headers
 * are set from the returned `max`, `remaining` and `ttl`, X-RateLimit-Reset as the Unix time
 * `now + ttl`; `continueExceeding: true` (README: "Renew user limitation when user sends a request
 * to the server when still limited"), so a caller that keeps knocking after a 429 keeps being
 * refused, while one that waits the Retry-After (`ttlInSeconds`) is served.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { limiterKey, perMinuteLimit } from './api-keys.ts';
import { registerFastifyPetStore } from './fastify-pet-store.ts';
import { answerText, createPetStore, errorAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export async function startFastifyCreateRateLimitServer(): Promise<RealServer> {
  const app = Fastify();
  await app.register(rateLimit, {
    global: false,
    max: async (request) => perMinuteLimit(request.headers.authorization),
    timeWindow: windowMs,
    continueExceeding: true,
    keyGenerator: (request) => limiterKey(request.headers.authorization, request.ip),
  });
  const checkRateLimit = app.createRateLimit();
  app.addHook('onRequest', async (request, reply) => {
    const limit = await checkRateLimit(request);
    if (limit.isAllowed) return;
    reply.headers({
      'X-RateLimit-Limit': limit.max,
      'X-RateLimit-Remaining': limit.remaining,
      'X-RateLimit-Reset': Math.ceil((Date.now() + limit.ttl) / 1000),
    });
    if (!limit.isExceeded) return;
    return reply
      .code(429)
      .header('Retry-After', limit.ttlInSeconds)
      .type('application/json')
      .send(answerText(errorAnswer(429, 'rate_limited', 'Too many requests')));
  });
  registerFastifyPetStore(app, createPetStore());
  await app.ready();
  return listenOnLoopback(app.server);
}
