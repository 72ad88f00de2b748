/**
 * The Node door as a test author uses it: `setupServer` over the fake's handlers, plain `fetch`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFakeServer, type FakeServer } from './doors/node/node.ts';

let door: FakeServer;
const base = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: 'Bearer pro-demo-key' };

beforeAll(async () => {
  door = await createFakeServer({ seed: 'empty', stagingOrigin: 'https://staging.petstore.test' });
  door.server.listen({ onUnhandledFrame: 'error' });
});
afterAll(() => door.server.close());

test('answers fetch in-process: create, list by status, get', async () => {
  const created = await fetch(`${base}/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Inky', categoryId: 7, status: 'pending' }),
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as { id: number };
  const listed = await fetch(`${base}/pets?status=pending`, { headers: auth });
  expect(await listed.json()).toEqual([
    { id: pet.id, name: 'Inky', categoryId: 7, status: 'pending' },
  ]);
  expect(listed.headers.get('X-RateLimit-Limit')).toBe('300');
  const got = await fetch(`https://staging.petstore.test/v1/pets/${pet.id}`, { headers: auth });
  expect(got.status).toBe(200);
  expect(got.headers.get('Sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
});

test('answers 401 with an Error body when no key is sent', async () => {
  const response = await fetch(`${base}/pets`);
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 });
});

test('exposes the same control surface in-process', async () => {
  door.fake.control.force('getPet', 404, 1);
  expect((await fetch(`${base}/pets/1`, { headers: auth })).status).toBe(404);
  await door.fake.control.reset('empty');
  expect(door.fake.control.snapshot().pets).toEqual([]);
});
