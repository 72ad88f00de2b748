/**
 * The Redis pet store against the fake's own store (mock/store/pet-store.ts), on a real
 * redis-server of the test's own, never a mock client: fast-check runs the same random sequences
 * of creates, reads, lists, counts, snapshots and restores on both, and every answer must be the
 * same. And creates in flight at once on several connections, as replicas send them, get ids
 * unique and increasing, never pass the cap, and show in every replica's newest-first list.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { petStatuses } from '../base/contract/schemas.ts';
import type { NewPet, Pet, PetStatus } from '../base/contract/types.ts';
import type { ListOrder } from '../pipeline/config/list-order.ts';
import { maxPetId, type StoreSnapshot } from '../pipeline/persistence.ts';
import { createPetStore } from '../store/pet-store.ts';
import { joinFleet } from './fleet.ts';
import type { FleetView } from './fleet-check-lua.ts';
import { FleetLostError, FleetStaleError } from './fleet-state.ts';
import { fleetKey, storeKeys } from './redis-keys.ts';
import { redisPetStore } from './redis-pet-store.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** The seed of the property: pinned, and PET_STORE_SCRIPT_SEED=<n> runs another. */
const seed = Number(process.env.PET_STORE_SCRIPT_SEED ?? 52);

const { clients } = replicaClients(5);

/** The view of the fleet `prefix` of a replica that founded or joined it on the first client. */
async function fleetOf(prefix: string): Promise<FleetView> {
  const { epoch } = await joinFleet(clients[0] as ReplicaRedis, prefix, { settings: {} });
  return { epoch, version: () => '0' };
}

const status: fc.Arbitrary<PetStatus> = fc.constantFrom(...petStatuses);
const newPet: fc.Arbitrary<NewPet & { status: PetStatus }> = fc.record({
  name: fc.string({ maxLength: 12, unit: 'binary' }),
  categoryId: fc.oneof(
    fc.integer({ min: 1, max: 20 }),
    // int64 past 2^53, kept exact by the fake's lossless JSON.
    fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }),
  ),
  status,
});
/** A stored pet of a snapshot: any id up to maxPetId, a status or none. */
const storedPet: fc.Arbitrary<Pet> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: maxPetId })),
    fc.string({ maxLength: 8 }),
    fc.integer({ min: 1, max: 9 }),
    fc.option(status, { nil: undefined }),
  )
  .map(([id, name, categoryId, petStatus]) =>
    petStatus === undefined
      ? { id, name, categoryId }
      : { id, name, categoryId, status: petStatus },
  );
const snapshot: fc.Arbitrary<StoreSnapshot> = fc.record({
  pets: fc.uniqueArray(storedPet, { selector: (pet) => pet.id, maxLength: 12 }),
  nextId: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: maxPetId })),
});

/** One step of a sequence, as a route or the control surface takes it. */
type Step =
  | { readonly op: 'create'; readonly pet: NewPet & { status: PetStatus } }
  | { readonly op: 'get'; readonly id: number }
  | {
      readonly op: 'list';
      readonly limit: number;
      readonly status: PetStatus | undefined;
      readonly order: ListOrder;
    }
  | { readonly op: 'count' }
  | { readonly op: 'snapshot' }
  | { readonly op: 'restore'; readonly snapshot: StoreSnapshot };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: newPet.map((pet) => ({ op: 'create' as const, pet })) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(fc.integer({ min: 0, max: 45 }), fc.constantFrom(maxPetId, 1.5, -1))
      .map((id) => ({ op: 'get' as const, id })),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('list' as const),
      limit: fc.integer({ min: 1, max: 25 }),
      status: fc.option(status, { nil: undefined }),
      order: fc.constantFrom<ListOrder>('newest-first', 'oldest-first'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'count' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'snapshot' as const }) },
  {
    weight: 1,
    arbitrary: snapshot.map((restored) => ({ op: 'restore' as const, snapshot: restored })),
  },
);

test(`the Redis store answers as the fake's own on every sequence: creates, gets, lists in both orders, counts, snapshots and restores (seed ${seed}; PET_STORE_SCRIPT_SEED=<n> runs another)`, async () => {
  const seen = { created: 0, full: 0, listed: 0, restored: 0 };
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      snapshot,
      fc.integer({ min: 3, max: 30 }),
      fc.array(step, { maxLength: 40, size: 'max' }),
      async (start, maxPets, steps) => {
        run += 1;
        const own = await createPetStore(start.pets, undefined);
        await own.restore(start);
        // A fleet of its own for each run; its steps go over the connections in turn.
        const fleet = await fleetOf(`pets-${run}`);
        const stores = clients.map((client) => redisPetStore(client, `pets-${run}`, fleet));
        await (stores[0] as (typeof stores)[number]).restore(start);
        for (const [index, next] of steps.entries()) {
          const shared = stores[index % stores.length] as (typeof stores)[number];
          if (next.op === 'create') {
            // Both stores apply the cap: a full store creates nothing.
            const expected = own.create(next.pet, maxPets);
            expect(await shared.create(next.pet, maxPets)).toEqual(expected);
            seen[expected === 'full' ? 'full' : 'created'] += 1;
          } else if (next.op === 'get') expect(await shared.get(next.id)).toEqual(own.get(next.id));
          else if (next.op === 'list') {
            const expected = own.list(next.limit, next.status, next.order);
            expect(await shared.list(next.limit, next.status, next.order)).toEqual(expected);
            if (expected.length > 1) seen.listed += 1;
          } else if (next.op === 'count') expect(await shared.count()).toBe(own.count());
          else if (next.op === 'snapshot') expect(await shared.snapshot()).toEqual(own.snapshot());
          else {
            await own.restore(next.snapshot);
            await shared.restore(next.snapshot);
            seen.restored += 1;
          }
        }
        expect(await (stores[0] as (typeof stores)[number]).snapshot()).toEqual(own.snapshot());
      },
    ),
    { seed, numRuns: 100 },
  );
  expect(seen.created).toBeGreaterThan(300);
  expect(seen.full).toBeGreaterThan(20);
  expect(seen.listed).toBeGreaterThan(200);
  expect(seen.restored).toBeGreaterThan(20);
}, 120_000);

test('a snapshot that is not one is refused as the fake refuses it, and the store is as it was', async () => {
  const own = await createPetStore([]);
  const shared = redisPetStore(clients[0] as ReplicaRedis, 'refused', await fleetOf('refused'));
  const pet = { id: 1, name: 'Rex', categoryId: 1 };
  await shared.restore({ pets: [pet], nextId: 1 });
  const twice = { pets: [pet, pet], nextId: 1 };
  const ownError = await own.restore(twice).catch((error: unknown) => error);
  expect(ownError).toBeInstanceOf(RangeError);
  await expect(shared.restore(twice)).rejects.toThrow((ownError as RangeError).message);
  expect(await shared.snapshot()).toEqual({ pets: [pet], nextId: 2 });
});

test('100 creates in flight at once over 5 connections get ids 1 to 100, each once, in the order Redis took them, and every newest-first list shows them all', async () => {
  const fleet = await fleetOf('concurrent');
  const stores = clients.map((client) => redisPetStore(client, 'concurrent', fleet));
  await (stores[0] as (typeof stores)[number]).restore({ pets: [], nextId: 1 });
  const created = await Promise.all(
    Array.from({ length: 100 }, (_, index) =>
      (stores[index % stores.length] as (typeof stores)[number]).create(
        { name: `pet ${index}`, categoryId: 1, status: 'available' },
        1_000,
      ),
    ),
  );
  const ids = created.map((pet) => (typeof pet === 'object' ? Number(pet.id) : 0));
  expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  // One connection's creates are answered in the order it sent them: its ids increase.
  for (let connection = 0; connection < stores.length; connection++) {
    const own = ids.filter((_, index) => index % stores.length === connection);
    expect(own).toEqual([...own].sort((a, b) => a - b));
  }
  for (const store of stores) {
    const newest = await store.list(100, 'available');
    expect(newest.map((pet) => pet.id)).toEqual(Array.from({ length: 100 }, (_, i) => 100 - i));
  }
});

test('50 creates in flight at once against a cap of 30 store exactly 30', async () => {
  const fleet = await fleetOf('capped');
  const stores = clients.map((client) => redisPetStore(client, 'capped', fleet));
  await (stores[0] as (typeof stores)[number]).restore({ pets: [], nextId: 1 });
  const created = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      (stores[index % stores.length] as (typeof stores)[number]).create(
        { name: 'Rex', categoryId: 1, status: 'sold' },
        30,
      ),
    ),
  );
  expect(created.filter((pet) => pet === 'full')).toHaveLength(20);
  expect(await (stores[1] as (typeof stores)[number]).count()).toBe(30);
});

test('a snapshot of 5,000 pets goes in and comes back whole, in id order', async () => {
  const shared = redisPetStore(clients[0] as ReplicaRedis, 'large', await fleetOf('large'));
  const pets = Array.from({ length: 5_000 }, (_, index) => ({
    id: 5_000 - index,
    name: `pet ${index}`,
    categoryId: 1,
    status: 'pending' as const,
  }));
  await shared.restore({ pets, nextId: 1 });
  const back = await shared.snapshot();
  expect(back.nextId).toBe(5_001);
  expect(back.pets.map((pet) => pet.id)).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
  expect(await shared.list(3, 'pending', 'newest-first')).toEqual([pets[0], pets[1], pets[2]]);
});

test('the read script with a count of 0 reads every pet, in either order', async () => {
  const client = clients[0] as ReplicaRedis;
  const pets = [1, 2, 3].map((id) => ({ id, name: `pet ${id}`, categoryId: 1 }));
  const fleet = await fleetOf('read-all');
  await redisPetStore(client, 'read-all', fleet).restore({ pets, nextId: 1 });
  const keys = storeKeys('read-all');
  for (const order of ['newest-first', 'oldest-first'] as const) {
    const read = await client.readPets(
      [keys.nextId, keys.pets, keys.ids, fleetKey('read-all')],
      0,
      order,
      fleet,
    );
    if (typeof read !== 'object') throw new Error(`the read was refused: ${read}`);
    const ids = (JSON.parse(read.petsJson) as Pet[]).map((pet) => pet.id);
    expect({ order, ids, nextId: read.nextId }).toEqual({
      order,
      ids: order === 'newest-first' ? [3, 2, 1] : [1, 2, 3],
      nextId: 4,
    });
  }
});

test('a create, a get, a list and a snapshot of a replica behind its fleet, or of a fleet Redis lost, read and write nothing; so does a restore of a fleet Redis lost', async () => {
  const { epoch } = await joinFleet(clients[0] as ReplicaRedis, 'checked', { settings: {} });
  let version = '0';
  const store = redisPetStore(clients[1] as ReplicaRedis, 'checked', {
    epoch,
    version: () => version,
  });
  const pet = { name: 'Rex', categoryId: 1, status: 'available' } as const;
  await store.restore({ pets: [], nextId: 1 });
  expect(await store.create(pet)).toMatchObject({ id: 1 });
  await (clients[0] as ReplicaRedis).hSet(fleetKey('checked'), 'version', '1');
  for (const call of [
    () => store.create(pet),
    () => store.get(1),
    () => store.list(10),
    () => store.snapshot(),
  ])
    await expect(call()).rejects.toBeInstanceOf(FleetStaleError);
  version = '1';
  expect(await store.count()).toBe(1);
  await (clients[0] as ReplicaRedis).del(fleetKey('checked'));
  for (const call of [
    () => store.create(pet),
    () => store.get(1),
    () => store.list(10),
    () => store.snapshot(),
    () => store.restore({ pets: [], nextId: 1 }),
  ])
    await expect(call()).rejects.toBeInstanceOf(FleetLostError);
  expect(await store.count()).toBe(1);
});
