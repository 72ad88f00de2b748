/**
 * A pet an app creates is in the app's next plain `GET /pets` and
 * `GET /pets?limit=5`, through every Node door (the browser door's own test is in
 * browser/browser-door.test.ts). The interface leaves the order and the seed to the fake ("Paging
 * beyond `limit` ...: not shown"); the fake lists newest first (docs/fake.md, "Choices the fake
 * makes"), so with the 180-pet seed and `limit` at most 100 the new pet still shows.
 */
import { afterEach, expect, test } from 'vitest';
import type { Pet } from '../../base/contract/types.ts';
import { createFake } from '../../core/fake.ts';
import { listenHttp } from '../http/http-server.ts';
import { createFakeServer } from './node.ts';

const origin = 'http://127.0.0.1:4010';
const auth = { Authorization: 'Bearer business-demo-key' };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Creates a pet through `send`, then reads both lists an app would: the pet leads each. */
async function expectCreatedPetListed(send: typeof fetch, base: string): Promise<void> {
  const created = await send(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Fresh Nemo', categoryId: 3 }),
  });
  expect(created.status).toBe(201);
  const pet = (await created.json()) as Pet;
  expect(pet.id).toBe(181); // after the 180-pet seed: the new pet is not in the seed's first 100
  for (const query of ['', '?limit=5']) {
    const listed = await send(`${base}/v1/pets${query}`, { headers: auth });
    expect(listed.status).toBe(200);
    const pets = (await listed.json()) as Pet[];
    expect(pets.length).toBe(query === '' ? 20 : 5);
    expect(pets[0]).toEqual(pet);
    // Newest first: ids fall down the page.
    const ids = pets.map((each) => Number(each.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  }
}

test('HTTP door: a created pet leads the next GET /pets and GET /pets?limit=5', async () => {
  const fake = await createFake({ stagingOrigin: false });
  const door = await listenHttp(fake.behaviour, { port: 0, origin });
  cleanups.push(() => door.close());
  const port = (door.server.address() as { port: number }).port;
  await expectCreatedPetListed(fetch, `http://127.0.0.1:${port}`);
});

test('Node door (msw setupServer): a created pet leads the next GET /pets and GET /pets?limit=5', async () => {
  const { server } = await createFakeServer({ stagingOrigin: false });
  server.listen({ onUnhandledFrame: 'error' });
  cleanups.push(() => server.close());
  await expectCreatedPetListed(fetch, origin);
});

test('fake.fetch: a created pet leads the next GET /pets and GET /pets?limit=5', async () => {
  const fake = await createFake({ stagingOrigin: false });
  await expectCreatedPetListed(fake.fetch, origin);
});

test('listOrder oldest-first lists in id order, where a created pet is past the first 100', async () => {
  const fake = await createFake({ stagingOrigin: false, listOrder: 'oldest-first' });
  const created = await fake.fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Late Nemo', categoryId: 3 }),
  });
  expect(created.status).toBe(201);
  const listed = (await (
    await fake.fetch(`${origin}/v1/pets?limit=100`, { headers: auth })
  ).json()) as Pet[];
  expect(listed.map((pet) => pet.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
});

test('an unknown listOrder is a ConfigError listing the orders', async () => {
  await expect(createFake({ listOrder: 'random' as 'newest-first' })).rejects.toThrow(
    /listOrder.*must be one of: newest-first, oldest-first; got "random"/,
  );
});
