/**
 * The Pet Store on fastify 5: the bearer-auth hook and the routes, registered on an instance the
 * server file created (after its limiter). Fastify's JSON parser is replaced by one that keeps
 * the raw text, so the store can parse it with int64 kept exact.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { knownKey } from './api-keys.ts';
import { answerText, errorAnswer, type PetStore, type PetStoreAnswer } from './pet-store.ts';

/** Writes a store answer as JSON. */
function send(reply: FastifyReply, answer: PetStoreAnswer): FastifyReply {
  return reply.code(answer.status).type('application/json').send(answerText(answer));
}

const firstValue = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstValue(value[0]) : undefined;

/** Registers auth (a preHandler hook, after `onRequest` limiters) and the routes under /v1. */
export function registerFastifyPetStore(app: FastifyInstance, store: PetStore): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: 1_048_576 },
    (_request, body, done) => done(null, body),
  );
  app.addHook('preHandler', async (request, reply) => {
    if (knownKey(request.headers.authorization) !== undefined) return;
    reply.header('WWW-Authenticate', 'Bearer');
    return send(reply, errorAnswer(401, 'unauthorized', 'a valid API key is required'));
  });
  app.get('/v1/pets', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return send(
      reply,
      store.listPets({ limit: firstValue(query.limit), status: firstValue(query.status) }),
    );
  });
  app.post('/v1/pets', async (request, reply) =>
    send(reply, store.createPet(typeof request.body === 'string' ? request.body : '')),
  );
  app.get('/v1/pets/:petId', async (request, reply) =>
    send(reply, store.getPet((request.params as { petId: string }).petId)),
  );
  app.setNotFoundHandler(async (_request, reply) =>
    send(reply, errorAnswer(404, 'not_found', 'no such path')),
  );
}
