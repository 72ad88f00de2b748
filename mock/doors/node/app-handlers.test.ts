/**
 * The app's own msw handlers beside the fake's, through the Node door's entry
 * (`petstore-fake/node`): given to `createFakeServer({ handlers })` they are initial handlers,
 * which `server.resetHandlers()` keeps (msw src/node/glossary.ts: it "Resets request handlers to
 * the initial list given to the `setupServer` call"). msw asks handlers in order and
 * stops at the first that returns a response; one that returns nothing hands the request on
 * (msw src/core/utils/execute-handlers.ts: "Stop the lookup if this handler returns a mocked
 * response"). The fake claims its origins' `/v1` and `/__control/` paths and nothing else
 * (docs/tests.md, "The app's own msw handlers").
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, expect, test } from 'vitest';
import { createFake, createFakeServer } from './node.ts';

const origin = 'http://127.0.0.1:4010';
const headers = { Authorization: 'Bearer free-demo-key' };
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The app's other API: its user service, on an origin of its own. */
const me = http.get('https://accounts.example.test/me', () => HttpResponse.json({ name: 'Ada' }));

test('createFakeServer({ handlers }) answers the app’s other origins and the fake’s, before and after resetHandlers()', async () => {
  const { server } = await createFakeServer({ stagingOrigin: false, handlers: [me] });
  server.listen({ onUnhandledFrame: 'error' });
  stops.push(() => server.close());
  for (const round of ['before', 'after']) {
    const user = await fetch('https://accounts.example.test/me');
    expect(await user.json(), round).toEqual({ name: 'Ada' });
    const pets = await fetch(`${origin}/v1/pets?limit=2`, { headers });
    expect(pets.status, round).toBe(200);
    expect(await pets.json(), round).toHaveLength(2);
    server.resetHandlers();
  }
  // A server.use() override still goes in front of both, and the reset drops it.
  server.use(http.get('https://accounts.example.test/me', () => HttpResponse.json({ name: 'Bo' })));
  expect(await (await fetch('https://accounts.example.test/me')).json()).toEqual({ name: 'Bo' });
  server.resetHandlers();
  expect(await (await fetch('https://accounts.example.test/me')).json()).toEqual({ name: 'Ada' });
});

test('a handler for a /v1 path of the fake’s origin answers in handlers, and is shadowed by the fake’s 404 when listed after it', async () => {
  const users = http.get(`${origin}/v1/users`, () => HttpResponse.json([{ id: 'u1' }]));
  const first = await createFakeServer({ stagingOrigin: false, handlers: [users] });
  first.server.listen({ onUnhandledFrame: 'error' });
  const answered = await fetch(`${origin}/v1/users`, { headers });
  expect(await answered.json()).toEqual([{ id: 'u1' }]);
  first.server.close();

  const fake = await createFake({ stagingOrigin: false });
  const after = setupServer(...fake.handlers, users);
  after.listen({ onUnhandledFrame: 'error' });
  stops.push(() => after.close());
  const shadowed = await fetch(`${origin}/v1/users`, { headers });
  expect(shadowed.status).toBe(404);
  expect(await shadowed.json()).toMatchObject({ code: 'route_not_found' });
});

test('setupServer(...fake.handlers, ...mine) answers the app’s origins and the fake’s origin outside /v1 and /__control/', async () => {
  const fake = await createFake({ stagingOrigin: false });
  const token = http.post(`${origin}/auth/token`, () => HttpResponse.json({ token: 't' }));
  const server = setupServer(...fake.handlers, me, token);
  server.listen({ onUnhandledFrame: 'error' });
  stops.push(() => server.close());
  expect(await (await fetch('https://accounts.example.test/me')).json()).toEqual({ name: 'Ada' });
  const signedIn = await fetch(`${origin}/auth/token`, { method: 'POST' });
  expect(await signedIn.json()).toEqual({ token: 't' });
  const pets = await fetch(`${origin}/v1/pets?limit=1`, { headers });
  expect(await pets.json()).toHaveLength(1);
});

test('a handler in front of the fake that returns nothing hands the request on to the fake', async () => {
  const seen: string[] = [];
  const watch = http.all(`${origin}/v1/*`, ({ request }) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
  });
  const { server, fake } = await createFakeServer({ stagingOrigin: false, handlers: [watch] });
  server.listen({ onUnhandledFrame: 'error' });
  stops.push(() => server.close());
  const pets = await fetch(`${origin}/v1/pets?limit=3`, { headers });
  expect(pets.status).toBe(200);
  expect(await pets.json()).toHaveLength(3);
  expect(seen).toEqual(['GET /v1/pets']);
  // The fake answered it: its journal holds the request.
  expect(fake.control.requests().requests.map((entry) => entry.operationId)).toEqual(['listPets']);
});
