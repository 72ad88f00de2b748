/**
 * The rules a stubbed answer breaks, each held to the interface document's words
 * (/work/shared/petstore-interface.md as openapi/interface.md carries it): Limits ("Rate limit
 * headers (present on every response)", X-RateLimit-Reset "Unix timestamp"), Errors ("Every error
 * response has a JSON body shaped as Error"; 429 with Retry-After), Endpoints (each operation's
 * responses), What the service does (bodies are JSON) and Versioning (getPet deprecated).
 */
import { expect, test } from 'vitest';
import { rulesBroken } from './stub-breaks.ts';

const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
const error = (status: number) => ({ code: 'x', message: 'y', status });

test('answers the interface allows break nothing', () => {
  expect(rulesBroken('listPets', { status: 200, body: [pet] })).toEqual([]);
  expect(rulesBroken('listPets', { status: 200, body: [] })).toEqual([]);
  expect(rulesBroken('createPet', { status: 201, body: pet })).toEqual([]);
  expect(rulesBroken('getPet', { status: 404, body: error(404) })).toEqual([]);
  expect(
    rulesBroken('getPet', { status: 429, body: error(429), headers: { 'Retry-After': '3' } }),
  ).toEqual([]);
  expect(
    rulesBroken('listPets', {
      status: 200,
      rawBody: JSON.stringify([pet]),
      headers: { 'X-RateLimit-Remaining': '0', 'content-type': 'application/json; charset=utf-8' },
    }),
  ).toEqual([]);
  // A dropped connection sends no answer to judge.
  expect(rulesBroken('listPets', { drop: true, delayMs: 10 })).toEqual([]);
});

test('each broken rule is named once, in the interface words', () => {
  expect(rulesBroken('listPets', { status: 200, removeHeaders: ['x-ratelimit-reset'] })).toEqual([
    'a 200 without X-RateLimit-Reset breaks Limits: rate limit headers present on every response',
    'a 200 whose body is not Pets (an array of Pet) breaks Endpoints: listPets 200 carries Pets (an array of Pet)',
  ]);
  expect(rulesBroken('getPet', { status: 500, body: error(500) })).toEqual([
    'a 500 is no status of getPet (Endpoints and Errors: it answers 200, 401, 404, 429)',
  ]);
  expect(rulesBroken('createPet', { status: 429, body: error(429) })).toEqual([
    'a 429 without Retry-After breaks Errors and Limits: the client retries after the time given in the Retry-After response header',
  ]);
  expect(rulesBroken('createPet', { status: 400, body: { error: 'bad' } })).toEqual([
    'a 400 without an Error body breaks Errors: every error response has a JSON body shaped as Error (code, message, status)',
  ]);
  expect(rulesBroken('createPet', { status: 400, body: error(422) })).toEqual([
    'an Error whose status is 422 on a 400 breaks Resources: Error.status is the HTTP status code of the response',
  ]);
  expect(rulesBroken('getPet', { status: 200, body: { ...pet, name: 7 } })).toEqual([
    'a 200 whose body is not Pet breaks Endpoints: getPet 200 carries Pet',
  ]);
  expect(rulesBroken('getPet', { status: 200, body: pet, removeHeaders: ['Sunset'] })).toEqual([
    'a getPet 200 without Deprecation or Sunset breaks Versioning: GET /pets/{petId} is deprecated, removal on 5 December 2030',
  ]);
  expect(
    rulesBroken('listPets', {
      status: 200,
      body: [],
      headers: { 'X-RateLimit-Reset': '60', 'X-RateLimit-Limit': 'lots' },
    }),
  ).toEqual([
    'X-RateLimit-Limit: "lots" breaks Limits: a count of requests',
    'X-RateLimit-Reset: 60 breaks Limits: a Unix timestamp at which the limit resets (not a countdown)',
  ]);
  expect(rulesBroken('listPets', { status: 200, rawBody: '{"pets": [' })).toEqual([
    'a body that is not JSON breaks What the service does: response bodies are JSON (application/json)',
  ]);
  expect(
    rulesBroken('listPets', { status: 200, body: [], headers: { 'Content-Type': 'text/html' } }),
  ).toEqual([
    'a body sent as "text/html" breaks What the service does: response bodies are JSON (application/json)',
  ]);
});
