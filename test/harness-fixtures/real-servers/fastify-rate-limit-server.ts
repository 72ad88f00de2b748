/**
 * fastify 5 + @fastify/rate-limit 11 registered as its README shows (`register(rateLimit, { max,
 * timeWindow, keyGenerator })`, the README's keyGenerator example keyed by the caller) with the
 * plugin's defaults otherwise. Its `x-ratelimit-reset` is the seconds left in the window
 * (index.js: `res.header(params.labels.rateReset, ttlInSeconds)`), not the Unix time the
 * interface states; its 429 body is fastify's error (`{ statusCode, error, message }`, README:
 * errorResponseBuilder's default), not an Error.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { limiterKey, perMinuteLimit } from './api-keys.ts';
import { registerFastifyPetStore } from './fastify-pet-store.ts';
import { createPetStore } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Starts the server. */
export async function startFastifyRateLimitServer(): Promise<RealServer> {
  const app = Fastify();
  await app.register(rateLimit, {
    max: async (request) => perMinuteLimit(request.headers.authorization),
    timeWindow: windowMs,
    keyGenerator: (request) => limiterKey(request.headers.authorization, request.ip),
  });
  registerFastifyPetStore(app, createPetStore());
  await app.ready();
  return listenOnLoopback(app.server);
}
