/**
 * The Pet Store on hono 4: a sub-app with the bearer-auth middleware and the routes, mounted by
 * each hono server under /v1 after its limiter, and the Node listener (@hono/node-server).
 */
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, type Env, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { knownKey, limiterKey, perMinuteLimit } from './api-keys.ts';
import { answerText, errorAnswer, type PetStore, type PetStoreAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Writes a store answer as JSON (headers set earlier on the context are kept). */
function send(c: Context, answer: PetStoreAnswer): Response {
  c.header('Content-Type', 'application/json');
  return c.body(answerText(answer), answer.status as ContentfulStatusCode);
}

/** The client's address, for limiters keyed by it. */
function clientAddress(c: Context): string {
  return getConnInfo(c).remote.address ?? '';
}

/**
 * hono-rate-limiter options of a team that limits by API key and plan, as its README's `limit`
 * and `keyGenerator` functions allow (the client's address for requests without a key); each
 * server adds the header and 429 settings that make it that server.
 */
export const perKeyAndPlan = {
  windowMs,
  limit: (c: Context) => perMinuteLimit(c.req.header('Authorization')),
  keyGenerator: (c: Context) => limiterKey(c.req.header('Authorization'), clientAddress(c)),
};

/** Auth and the three routes, relative to the base path. */
export function honoPetRoutes(store: PetStore): Hono {
  const routes = new Hono();
  routes.use(async (c, next) => {
    if (knownKey(c.req.header('Authorization')) !== undefined) return next();
    c.header('WWW-Authenticate', 'Bearer');
    return send(c, errorAnswer(401, 'unauthorized', 'a valid API key is required'));
  });
  routes.get('/pets', (c) =>
    send(c, store.listPets({ limit: c.req.query('limit'), status: c.req.query('status') })),
  );
  routes.post('/pets', async (c) => send(c, store.createPet(await c.req.text())));
  routes.get('/pets/:petId', (c) => send(c, store.getPet(c.req.param('petId'))));
  routes.notFound((c) => send(c, errorAnswer(404, 'not_found', 'no such path')));
  return routes;
}

/** Serves `app` through @hono/node-server on a free loopback port. */
export function listenHono<E extends Env>(app: Hono<E>): Promise<RealServer> {
  return listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server);
}
