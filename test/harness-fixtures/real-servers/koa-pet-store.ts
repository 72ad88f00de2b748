/**
 * The Pet Store on koa 3 + @koa/router + @koa/bodyparser: the bearer-auth middleware and the
 * routes as middleware each koa server mounts after its limiter, and the Node listener. The body
 * parser hands JSON over as text (`enableTypes: ['text']`, JSON as a text type) so the store can
 * parse it with int64 kept exact.
 */
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type Koa from 'koa';
import { knownKey } from './api-keys.ts';
import { answerText, errorAnswer, type PetStore, type PetStoreAnswer } from './pet-store.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** Writes a store answer as JSON. */
function send(ctx: Koa.Context, answer: PetStoreAnswer): void {
  ctx.status = answer.status;
  ctx.type = 'application/json';
  ctx.body = answerText(answer);
}

const firstValue = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstValue(value[0]) : undefined;

/** Adds auth, body parsing and the three routes under /v1 to `app`, after what it has already. */
export function useKoaPetStore(app: Koa, store: PetStore): void {
  const router = new Router({ prefix: '/v1' });
  router.get('/pets', (ctx) =>
    send(
      ctx,
      store.listPets({ limit: firstValue(ctx.query.limit), status: firstValue(ctx.query.status) }),
    ),
  );
  router.post('/pets', (ctx) => {
    const body: unknown = ctx.request.body;
    send(ctx, store.createPet(typeof body === 'string' ? body : ''));
  });
  router.get('/pets/:petId', (ctx) => send(ctx, store.getPet(ctx.params.petId ?? '')));
  const auth: Koa.Middleware = async (ctx, next) => {
    if (knownKey(ctx.get('Authorization')) !== undefined) return next();
    ctx.set('WWW-Authenticate', 'Bearer');
    send(ctx, errorAnswer(401, 'unauthorized', 'a valid API key is required'));
  };
  const notFound: Koa.Middleware = (ctx) =>
    send(ctx, errorAnswer(404, 'not_found', 'no such path'));
  app.use(auth);
  app.use(bodyParser({ enableTypes: ['text'], extendTypes: { text: ['application/json'] } }));
  app.use(router.routes());
  app.use(notFound);
}

/** Serves `app` on a free loopback port. */
export function listenKoa(app: Koa): Promise<RealServer> {
  return listenOnLoopback(createServer(app.callback()));
}
