/**
 * The Pact recorder through the doors a user has: a consumer's requests through `fake.fetch`,
 * the pact read from `fake.control.pact()` and from `GET /__control/pact` on the HTTP door, the
 * provider states set up through `POST /__control/provider-states` as a verifier sends them. The
 * file's shape is checked against the Pact V4 specification's text (pact-specification,
 * version-4 branch, README "File format"; the JSON schema it links, pactflow/pact-schemas
 * dist/pact-schema-v4.json, is not on npm, so its required fields are asserted here by hand).
 */
import { afterEach, expect, test } from 'vitest';
import { createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';
import { type PactInteraction, redactedAuthorization } from './pact-interaction.ts';
import type { PactFile } from './pact-step.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };
const freeJson = { ...free, 'Content-Type': 'application/json' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A consumer's suite, in miniature: what an app's tests do against the fake. */
async function consumerSuite(fake: Fake): Promise<void> {
  const send = (path: string, init?: RequestInit) => fake.fetch(`${api}${path}`, init);
  await send('/pets?limit=2', { headers: free });
  await send('/pets?limit=5', { headers: free }); // same shape: no new interaction
  await send('/pets?status=sold', { headers: free });
  const body = JSON.stringify({ name: 'Rex', categoryId: 3, status: 'available' });
  await send('/pets', { method: 'POST', headers: freeJson, body });
  await send('/pets', { method: 'POST', headers: freeJson, body: '{"name":"Rex"}' });
  await send('/pets/1', { headers: free });
  await send('/pets/99999', { headers: free });
  await send('/pets');
  await send('/pets', { headers: { Authorization: 'Bearer no-such-key-123' } });
  fake.control.updateKey('demo-pro', { limits: { perMinute: 1, perDay: 100 } });
  // The two requests in one minute, so the second is the 429 the pact records.
  fake.control.freezeTime(true);
  const pro = { Authorization: 'Bearer pro-demo-key' };
  await send('/pets', { headers: pro });
  await send('/pets', { headers: pro });
}

const byDescription = (pact: PactFile, start: string): PactInteraction => {
  const found = pact.interactions.find((each) => each.description.startsWith(start));
  if (found === undefined) throw new Error(`no interaction "${start}" in the pact`);
  return found;
};

test('records one interaction per operation, status, request shape and provider state', async () => {
  const fake = await createFake();
  await consumerSuite(fake);
  const pact = fake.control.pact({ consumer: 'web-app', provider: 'petstore' });
  expect(pact.interactions.map((each) => each.description)).toEqual([
    'listPets 200: GET /pets?limit (a key on the free plan, pets exist)',
    'listPets 200: GET /pets?status (a key on the free plan, a pet with status sold exists)',
    'createPet 201: POST /pets (a key on the free plan)',
    'createPet 400 invalid_body: POST /pets (a key on the free plan)',
    'getPet 200: GET /pets/{petId} (a key on the free plan, pet 1 exists)',
    'getPet 404 not_found: GET /pets/{petId} (a key on the free plan, pet 99999 does not exist)',
    'listPets 401 unauthorized: GET /pets (no key)',
    'listPets 401 unauthorized: GET /pets (a key that matches none)',
    'listPets 200: GET /pets (a key on the pro plan, pets exist)',
    "listPets 429 rate_limited: GET /pets (a key on the pro plan, the key's window is spent)",
  ]);
  // The first of two requests of one shape is the one kept.
  expect(pact.interactions[0]?.request.query).toEqual({ limit: ['2'] });
  expect(byDescription(pact, 'getPet 200').providerStates[1]).toEqual({
    name: 'pet 1 exists',
    params: expect.objectContaining({ id: 1, name: expect.any(String) }),
  });
});

test('never writes a key: a placeholder, a regex rule and a generator that takes it from the state', async () => {
  const fake = await createFake();
  await consumerSuite(fake);
  const text = JSON.stringify(fake.control.pact());
  for (const secret of ['free-demo-key', 'pro-demo-key', 'no-such-key-123'])
    expect(text).not.toContain(secret);
  const { request } = byDescription(fake.control.pact(), 'createPet 201');
  expect(request.headers?.Authorization).toEqual([redactedAuthorization]);
  expect(request.matchingRules?.header?.Authorization?.matchers).toEqual([
    { match: 'regex', regex: '^Bearer \\S+$' },
  ]);
  expect(request.generators).toEqual({
    header: {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's expression syntax.
      Authorization: { type: 'ProviderState', expression: 'Bearer ${apiKey}', dataType: 'STRING' },
    },
  });
});

test('bodies carry matching rules from the OpenAPI document: types, integers, the status enum, arrays at least one long', async () => {
  const fake = await createFake();
  await consumerSuite(fake);
  const pact = fake.control.pact();
  const list = byDescription(pact, 'listPets 200: GET /pets?limit').response;
  expect(list.matchingRules.body).toEqual({
    $: { combine: 'AND', matchers: [{ match: 'type', min: 1 }] },
    '$[*].id': { combine: 'AND', matchers: [{ match: 'integer' }] },
    '$[*].name': { combine: 'AND', matchers: [{ match: 'type' }] },
    '$[*].categoryId': { combine: 'AND', matchers: [{ match: 'integer' }] },
    '$[*].status': {
      combine: 'AND',
      matchers: [{ match: 'regex', regex: '^(available|pending|sold)$' }],
    },
  });
  expect(list.matchingRules.header?.['X-RateLimit-Remaining']?.matchers).toEqual([
    { match: 'regex', regex: '^-?\\d+$' },
  ]);
  const error = byDescription(pact, 'createPet 400').response;
  expect(Object.keys(error.matchingRules.body ?? {}).sort()).toEqual([
    '$.code',
    '$.message',
    '$.status',
  ]);
  const limited = byDescription(pact, 'listPets 429').response;
  expect(limited.headers['Retry-After']).toEqual([expect.stringMatching(/^\d+$/)]);
  expect(limited.matchingRules.header?.['Retry-After']).toBeDefined();
});

test('the file has the shape Pact V4 gives: consumer, provider, Synchronous/HTTP interactions, metadata 4.0', async () => {
  const fake = await createFake();
  await consumerSuite(fake);
  const pact = JSON.parse(JSON.stringify(fake.control.pact({ consumer: 'web', provider: 'pets' })));
  expect(pact.consumer).toEqual({ name: 'web' });
  expect(pact.provider).toEqual({ name: 'pets' });
  expect(pact.metadata.pactSpecification).toEqual({ version: '4.0' });
  // The consumer suite's exchanges, each an interaction: the loop below checks every one.
  expect(pact.interactions.length).toBeGreaterThan(5);
  for (const interaction of pact.interactions) {
    expect(interaction.type).toBe('Synchronous/HTTP');
    expect(typeof interaction.description).toBe('string');
    expect(typeof interaction.key).toBe('string');
    expect(Array.isArray(interaction.providerStates)).toBe(true);
    for (const state of interaction.providerStates) expect(typeof state.name).toBe('string');
    expect(interaction.request.method).toMatch(/^[A-Z]+$/);
    expect(interaction.request.path).toMatch(/^\//);
    expect(Number.isInteger(interaction.response.status)).toBe(true);
    for (const part of [interaction.request, interaction.response]) {
      for (const values of Object.values(part.headers ?? {})) {
        expect(Array.isArray(values)).toBe(true);
      }
      if (part.body !== undefined) {
        expect(Object.keys(part.body).sort()).toEqual([
          'content',
          'contentType',
          'contentTypeHint',
          'encoded',
        ]);
      }
      for (const rules of Object.values(part.matchingRules ?? {}) as Record<string, unknown>[])
        for (const rule of Object.values(rules) as { combine: string; matchers: unknown[] }[]) {
          expect(rule.combine).toBe('AND');
          expect(rule.matchers.length).toBeGreaterThan(0);
        }
    }
  }
});

test("an interaction's key is the same in every run, so pacts gathered across resets merge by it", async () => {
  const [first, second] = [await createFake(), await createFake()];
  await consumerSuite(first);
  await consumerSuite(second);
  const keys = (fake: Fake) => fake.control.pact().interactions.map((each) => each.key);
  expect(keys(first)).toEqual(keys(second));
  expect(new Set(keys(first)).size).toBe(10);
  expect(keys(first)[0]).toMatch(/^[0-9a-f]{16}$/);
});

test('an empty list is its own interaction, with the state "no pets", its body exact (no min rule)', async () => {
  const fake = await createFake({ seed: 'empty' });
  await fake.fetch(`${api}/pets`, { headers: free });
  await fake.control.restore({
    pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }],
    nextId: 2,
  });
  await fake.fetch(`${api}/pets`, { headers: free });
  const [empty, full] = fake.control.pact().interactions;
  expect(empty?.description).toBe('listPets 200: GET /pets (a key on the free plan, no pets)');
  expect(empty?.response.body?.content).toEqual([]);
  expect(empty?.response.matchingRules.body).toEqual({});
  expect(full?.description).toBe('listPets 200: GET /pets (a key on the free plan, pets exist)');
});

test('a query parameter or body field named __proto__ is recorded as any other, and the answer is untouched', async () => {
  const fake = await createFake();
  const listed = await fake.fetch(`${api}/pets?__proto__=x&limit=1`, { headers: free });
  expect(listed.status).toBe(200);
  await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: freeJson,
    body: '{"__proto__":{"polluted":true},"name":"Rex","categoryId":1}',
  });
  const pact = fake.control.pact();
  expect(pact.interactions[0]?.request.query).toEqual(
    Object.fromEntries([
      ['__proto__', ['x']],
      ['limit', ['1']],
    ]),
  );
  expect(pact.interactions).toHaveLength(2);
  expect(pact.metadata.petstoreFake).toEqual({ recordedBy: 'petstore-fake', notRecorded: 0 });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('answers QA injected are not recorded, and a control reset empties the pact', async () => {
  const fake = await createFake();
  fake.control.force('listPets', 503, 1);
  await fake.fetch(`${api}/pets`, { headers: free });
  expect(fake.control.pact().interactions).toEqual([]);
  await fake.fetch(`${api}/pets`, { headers: free });
  expect(fake.control.pact().interactions).toHaveLength(1);
  await fake.control.reset();
  expect(fake.control.pact().interactions).toEqual([]);
});

test('over HTTP: GET /__control/pact names both sides; provider states are set up as a verifier asks', async () => {
  const fake = await createFake();
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
  await fetch(`${base}/v1/pets/7`, { headers: free });
  const pact = (await (
    await fetch(`${base}/__control/pact?consumer=web-app&provider=petstore`)
  ).json()) as PactFile;
  expect(pact.consumer.name).toBe('web-app');
  expect(pact.interactions[0]?.providerStates).toEqual([
    { name: 'a key on the free plan', params: { plan: 'free' } },
    { name: 'pet 7 exists', params: expect.objectContaining({ id: 7 }) },
  ]);

  const state = (body: unknown) =>
    fetch(`${base}/__control/provider-states`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const keyAnswer = await state({
    state: 'a key on the pro plan',
    params: { plan: 'pro' },
    action: 'setup',
  });
  const { apiKey } = (await keyAnswer.json()) as { apiKey: string };
  const missing = await state({ state: 'pet 7 does not exist', params: { id: 7 } });
  expect(missing.status).toBe(200);
  const got = await fetch(`${base}/v1/pets/7`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(got.status).toBe(404);
  expect(got.headers.get('X-RateLimit-Limit')).toBe('300');
  await state({ state: 'the key is banned', params: { plan: 'pro' } });
  const banned = await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(((await banned.json()) as { code: string }).code).toBe('temporarily_banned');
  await state({ state: 'no pets' });
  expect(fake.control.describe().pets).toBe(0);

  const unknown = await state({ state: 'the moon is full' });
  expect(unknown.status).toBe(400);
  expect(((await unknown.json()) as { message: string }).message).toContain(
    'unknown provider state "the moon is full"; known: a key on the <plan> plan',
  );
  const badPlan = await state({ state: 'a key on the gold plan', params: { plan: 'gold' } });
  expect(((await badPlan.json()) as { message: string }).message).toContain(
    'params.plan must be one of free, pro, business, enterprise',
  );
});
