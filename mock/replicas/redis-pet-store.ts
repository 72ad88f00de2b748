/**
 * The pet store of a fleet of replicas, in Redis: the same pets, ids and lists as the fake's own
 * store (mock/store/pet-store.ts), each step one round trip, whichever replica asks. A create is
 * one script (the id, the cap and the pet together: pet-store-scripts.ts), so ids are unique and
 * increasing across replicas; a list reads the ids in order and their pets in one script, so
 * newest-first lists show every replica's creates; a restore replaces everything in one script,
 * so no replica reads half of it, and writes nothing for a replica of a fleet founded anew since.
 */
import { parseJson, stringifyJson } from '../base/contract/lossless-json.ts';
import { newPetFields, onlyFields, petFields, petStatuses } from '../base/contract/schemas.ts';
import type { NewPet, Pet, PetStatus } from '../base/contract/types.ts';
import type { ListOrder } from '../pipeline/config/list-order.ts';
import type { RouteStore } from '../pipeline/fake-state.ts';
import { maxPetId, type StoreSnapshot } from '../pipeline/persistence.ts';
import { assertSnapshot, normaliseSnapshot } from '../store/pet-store.ts';
import type { FleetView } from './fleet-check-lua.ts';
import { checkedReply } from './fleet-state.ts';
import type { CreateReply } from './pet-store-scripts.ts';
import { assertRedisPrefix, fleetKey, storeKeys } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/**
 * The fleet's pets: PetStore's steps (pipeline/fake-state.ts), each answering once Redis has, so
 * the routes read it as any RouteStore.
 */
export interface RedisPetStore extends RouteStore {
  /**
   * Adds a pet with the next id unless `maxPets` are stored (`'full'`) or every id up to
   * maxPetId is used (`undefined`); the pet is in Redis when the promise resolves.
   */
  create(pet: NewPet & { status: PetStatus }, maxPets?: number): Promise<Pet | 'full' | undefined>;
  /** The pet with this id, if any. */
  get(id: number): Promise<Pet | undefined>;
  /** Up to `limit` pets in `order` (default newest first), only those with `status` when given. */
  list(limit: number, status?: PetStatus, order?: ListOrder): Promise<readonly Pet[]>;
  /** How many pets are stored. */
  count(): Promise<number>;
  /** Every pet, in id order, and the id counter. */
  snapshot(): Promise<StoreSnapshot>;
  /** Replaces every pet and the id counter with a snapshot's (a RangeError if it is not one). */
  restore(snapshot: StoreSnapshot): Promise<void>;
}

/** The pets of a read's JSON text, frozen as the fake's own store hands them out. */
export function frozenPets(json: string): readonly Pet[] {
  // Lossless: a categoryId past 2^53 comes back as the bigint it was stored from.
  const pets = parseJson(json) as Pet[];
  for (const pet of pets) Object.freeze(pet);
  return Object.freeze(pets);
}

/** The pet of a get's JSON text, if there was one. */
export function frozenPet(json: string | null): Pet | undefined {
  return json === null ? undefined : Object.freeze(parseJson(json) as Pet);
}

/** What a create answers, as RouteStore's create does: the pet, `'full'`, or `undefined` (no id left). */
export function createdPet(reply: CreateReply): Pet | 'full' | undefined {
  if (reply.created) return Object.freeze(parseJson(reply.json) as Pet);
  return reply.why === 'full' ? 'full' : undefined;
}

/** The new pet's JSON without its id, as createPet takes it (pet-store-scripts.ts). */
export function petJsonWithoutId(pet: NewPet): string {
  // The id goes first, as the contract orders a Pet's fields: the script writes it there.
  return stringifyJson(onlyFields(pet, newPetFields));
}

/**
 * The store over the Redis client `redis` (connected, with the fleet's scripts) for `prefix`, as
 * the replica that sees it as `fleet`: a create, a get and a list reject with FleetLostError or
 * FleetStaleError, having read or written nothing, when the replica is not current with it; a
 * restore with FleetLostError when the fleet is not the one the replica joined.
 */
export function redisPetStore(
  redis: ReplicaRedis,
  prefix: string,
  fleet: FleetView,
): RedisPetStore {
  assertRedisPrefix(prefix);
  const keys = storeKeys(prefix);
  const record = fleetKey(prefix);
  const listKey = (status: PetStatus | undefined) =>
    status === undefined ? keys.ids : keys.statusIds(status);
  return {
    async create(pet, maxPets = Number.MAX_SAFE_INTEGER) {
      const reply = await redis.createPet(
        [keys.nextId, keys.pets, keys.ids, keys.statusIds(pet.status), record],
        petJsonWithoutId(pet),
        maxPetId,
        maxPets,
        fleet,
      );
      return createdPet(checkedReply(reply, prefix));
    },
    async get(id) {
      if (!Number.isSafeInteger(id)) return undefined;
      return frozenPet(checkedReply(await redis.getPet([keys.pets, record], id, fleet), prefix));
    },
    async list(limit, status, order = 'newest-first') {
      if (limit < 1) return frozenPets('[]');
      const read = checkedReply(
        await redis.readPets(
          [keys.nextId, keys.pets, listKey(status), record],
          limit,
          order,
          fleet,
        ),
        prefix,
      );
      return frozenPets(read.petsJson);
    },
    count: () => redis.lLen(keys.ids),
    async snapshot() {
      const read = checkedReply(
        await redis.readPets([keys.nextId, keys.pets, keys.ids, record], 0, 'oldest-first', fleet),
        prefix,
      );
      return { pets: frozenPets(read.petsJson), nextId: read.nextId };
    },
    async restore(snapshot) {
      assertSnapshot(snapshot);
      const { pets, nextId } = normaliseSnapshot(snapshot);
      const restored = pets.map((pet) => ({
        id: pet.id,
        status: pet.status,
        json: stringifyJson(onlyFields(pet, petFields)),
      }));
      const reply = await redis.replacePets(
        [keys.nextId, keys.pets, keys.ids, ...petStatuses.map(keys.statusIds), record],
        restored,
        nextId,
        fleet,
      );
      checkedReply(reply, prefix);
    },
  };
}
