/**
 * The fake's pets, kept as plain records (only the contract's fields, in its order) in the two
 * shapes its reads need: an index by id (pet-index.ts) and id-ordered lists, all pets and per
 * status, read from either end (newest or oldest first, pet-list.ts), so lookups by id and listings by status stay flat at 100k pets. Every pet stored is a valid Pet: created ones
 * come from a NewPet the route validated plus an id the store assigns, restored ones are checked
 * against the contract's Pet schema whole before anything changes (`snapshotProblem`).
 *
 * No second record of a pet (a database collection's) is kept beside them: the route and the
 * snapshot check validate, every read goes through the index and lists here, and a collection's
 * record (a random UUID, a Map and symbol-keyed properties) would cost memory and time on every
 * create for nothing a read needs (bench/optimisations.md compares the two).
 */
import { onlyFields, petFields } from '../base/contract/schemas.ts';
import type { Pet, PetStatus } from '../base/contract/types.ts';
import type { PetStore } from '../pipeline/fake-state.ts';
import {
  maxPetId,
  type StorePersistence,
  type StoreSnapshot,
  snapshotProblem,
} from '../pipeline/persistence.ts';
import { StorageError } from '../pipeline/storage-error.ts';
import { createPetIndex } from './pet-index.ts';
import { createPetList, type PetList } from './pet-list.ts';

function byId(a: Pet, b: Pet): number {
  return Number(a.id) - Number(b.id);
}

/**
 * Creates a store holding `seed` (ids kept as given); new pets get ids after the largest. With
 * `persistence`, the saved state wins over the seed, and every change is saved before it is
 * acknowledged.
 */
export async function createPetStore(
  seed: readonly Pet[] = [],
  persistence?: StorePersistence,
): Promise<PetStore> {
  let index = createPetIndex();
  let all = createPetList();
  let byStatus = new Map<PetStatus | undefined, PetList>();
  let nextId = 1;

  /** Stores a valid pet, a plain copy from `copyPet`, under its id; throws if the id is taken. */
  const add = (pet: Pet): Pet => {
    const id = Number(pet.id);
    if (!Number.isSafeInteger(id) || index.has(id))
      throw new Error(`pet-store: duplicate or unsafe id ${String(pet.id)}`);
    return addUnder(id, pet);
  };

  /**
   * Stores a pet under an id known to be free. `create` calls it directly: `nextId` is past every
   * stored id, so the look-up `add` makes first is not needed.
   */
  const addUnder = (id: number, pet: Pet): Pet => {
    // Frozen: pages and their JSON text are reused until a pet is inserted among them.
    Object.freeze(pet);
    index.set(id, pet);
    nextId = Math.max(nextId, id + 1);
    all.insert(pet);
    let list = byStatus.get(pet.status);
    if (list === undefined) {
      list = createPetList();
      byStatus.set(pet.status, list);
    }
    list.insert(pet);
    return pet;
  };

  const load = (pets: readonly Pet[], next: number): void => {
    index = createPetIndex();
    all = createPetList();
    byStatus = new Map();
    nextId = 1;
    for (const pet of [...pets].sort(byId)) add(copyPet(pet));
    nextId = Math.max(nextId, next);
  };

  /** Checks a snapshot, saves it, then loads it: a bad snapshot or a failed save changes nothing. */
  const replace = async (snapshot: StoreSnapshot): Promise<void> => {
    assertSnapshot(snapshot);
    const normalised = normaliseSnapshot(snapshot);
    if (persistence !== undefined) {
      try {
        persistence.replaceAll(normalised);
      } catch (error) {
        throw new StorageError(error);
      }
    }
    load(normalised.pets, normalised.nextId);
  };

  const saved = persistence?.load();
  if (saved !== undefined) {
    assertSnapshot(saved);
    load(saved.pets, saved.nextId);
  } else await replace({ pets: seed, nextId: 1 });

  return {
    create(pet, maxPets = Number.POSITIVE_INFINITY) {
      if (index.size >= maxPets) return 'full';
      if (nextId > maxPetId) return undefined;
      const id = nextId;
      // The id last: a body's own `id` (or any field past the contract's) never reaches the store.
      const record = copyPet({ ...pet, id });
      // Saved first, synchronously: a failed save leaves no trace, and no request can see the
      // pet (or be given its id) before it is safely written.
      if (persistence !== undefined) {
        try {
          persistence.appendCreated(record);
        } catch (error) {
          throw new StorageError(error);
        }
      }
      return addUnder(id, record);
    },
    get: (id) => index.get(id),
    list(limit, status, order = 'newest-first') {
      const source = status === undefined ? all : byStatus.get(status);
      return source === undefined ? noPets : source.page(limit, order);
    },
    count: () => index.size,
    snapshot: () => ({ pets: all.pets.map(copyPet), nextId }),
    restore: replace,
  };
}

const noPets: readonly Pet[] = Object.freeze([]);

/** A plain copy of a pet with only the contract's fields, in the contract's order. */
function copyPet(pet: Pet): Pet {
  return onlyFields(pet, petFields);
}

/** Pets in id order and a `nextId` past the largest id: what the store holds after a restore. */
export function normaliseSnapshot(snapshot: StoreSnapshot): StoreSnapshot {
  const pets = [...snapshot.pets].map(copyPet).sort(byId);
  const largest = pets.length === 0 ? 0 : Number((pets.at(-1) as Pet).id);
  return { pets, nextId: Math.max(snapshot.nextId, largest + 1) };
}

/** Throws a RangeError naming the first problem unless `snapshot` can be restored whole. */
export function assertSnapshot(snapshot: unknown): asserts snapshot is StoreSnapshot {
  const problem = snapshotProblem(snapshot);
  if (problem !== undefined) throw new RangeError(problem);
}
