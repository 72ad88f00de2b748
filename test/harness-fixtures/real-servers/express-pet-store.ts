/**
 * The Pet Store on express 5: the bearer-auth middleware and the routes, shared by every express
 * server (each server file adds its own limiter, where its team put it).
 */
import express, { type RequestHandler, type Response, type Router } from 'express';
import { ipKeyGenerator, type Options } from 'express-rate-limit';
import { stringifyJson } from '../../../mock/internal/entry.ts';
import { knownKey, limiterKey, perMinuteLimit } from './api-keys.ts';
import { answerText, errorAnswer, type PetStore, type PetStoreAnswer } from './pet-store.ts';
import { windowMs } from './rate-limit-window.ts';

/**
 * express-rate-limit options of a team that limits by API key and plan, as its README's
 * `limit` and `keyGenerator` functions allow (the client's address for requests without a key);
 * each server adds the header and 429 settings that make it that server.
 */
export const perKeyAndPlan = {
  windowMs,
  limit: (request) => perMinuteLimit(request.get('Authorization')),
  keyGenerator: (request) =>
    limiterKey(request.get('Authorization'), ipKeyGenerator(request.ip ?? '')),
} satisfies Partial<Options>;

/**
 * express-rate-limit options of the servers that keep its legacy X-RateLimit-* only (Reset in
 * Unix seconds, dist/index.mjs `setLegacyHeaders`) and answer 429 with an Error body (`message`
 * as JSON, readme.md `message: string | json`).
 */
export const legacyHeadersAndErrorBody = {
  standardHeaders: false,
  legacyHeaders: true,
  message: { code: 'rate_limited', message: 'Too many requests', status: 429 },
} satisfies Partial<Options>;

/** Writes a store answer as JSON. */
function send(response: Response, answer: PetStoreAnswer): void {
  response.status(answer.status).type('application/json').send(answerText(answer));
}

const firstValue = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstValue(value[0]) : undefined;

/**
 * The body as JSON text for the store: as sent, or written back from what a JSON parser mounted
 * earlier made of it (body-parser leaves `request.body` alone once a parser has run).
 */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  return body === undefined ? '' : stringifyJson(body);
}

/** Refuses a request without a known bearer key with 401 and an Error body. */
export const expressAuth: RequestHandler = (request, response, next) => {
  if (knownKey(request.get('Authorization')) !== undefined) return next();
  response.set('WWW-Authenticate', 'Bearer');
  send(response, errorAnswer(401, 'unauthorized', 'a valid API key is required'));
};

/** The three routes (relative to the base path), with the raw body kept for int64-exact parsing. */
export function expressPetRoutes(store: PetStore): Router {
  const router = express.Router();
  // Every type as text: the store parses JSON itself, keeping int64 exact.
  router.use(express.text({ type: () => true, limit: '1mb' }));
  router.get('/pets', (request, response) =>
    send(
      response,
      store.listPets({
        limit: firstValue(request.query.limit),
        status: firstValue(request.query.status),
      }),
    ),
  );
  router.post('/pets', (request, response) =>
    send(response, store.createPet(bodyText(request.body))),
  );
  router.get('/pets/:petId', (request, response) =>
    send(response, store.getPet(request.params.petId ?? '')),
  );
  router.use((_request, response) => send(response, errorAnswer(404, 'not_found', 'no such path')));
  return router;
}
