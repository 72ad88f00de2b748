/**
 * The store's pets by id. Ids the store hands out run 1, 2, 3..., and a seed's usually do: those
 * sit in an array at their id. A Map would cost a hash table of three words an entry, at twice
 * the entries after each growth, and a cache miss on every create; the array holds 8 bytes a
 * pet (bench/optimisations.md measures both). An id far past the array's end (a restored
 * snapshot's 2^40) goes to a Map, as does every id after it: the store adds ids in rising order
 * (a load sorts them, a create takes the next), so the two never hold the same range. The array
 * stays proportional to the pets in it, not to the id range: it grows past a gap only while it
 * holds at least half as many pets as slots (give or take one gap), so a restore of ids 1,024
 * apart, each gap allowed on its own, cannot make it a million holes.
 */
import type { Pet } from '../base/contract/types.ts';

/** Pets by id. */
export interface PetIndex {
  get(id: number): Pet | undefined;
  has(id: number): boolean;
  /** Stores `pet` under `id`; the caller has checked the id is free. */
  set(id: number, pet: Pet): void;
  readonly size: number;
}

/** How far past the array's end an id may land and still go in it (the gap left as holes). */
const maxGap = 1024;

/** An empty index. */
export function createPetIndex(): PetIndex {
  const dense: (Pet | undefined)[] = [];
  const sparse = new Map<number, Pet>();
  let size = 0;
  let denseCount = 0;
  const get = (id: number): Pet | undefined =>
    (Number.isInteger(id) && id >= 0 && id < dense.length ? dense[id] : undefined) ??
    sparse.get(id);
  return {
    get,
    has: (id) => get(id) !== undefined,
    set(id, pet) {
      size += 1;
      if (id < dense.length && Number.isInteger(id) && id >= 0) {
        dense[id] = pet;
        denseCount += 1;
      } else if (
        sparse.size === 0 &&
        Number.isInteger(id) &&
        id >= dense.length &&
        id - dense.length <= maxGap &&
        id + 1 <= 2 * (denseCount + 1) + maxGap
      ) {
        while (dense.length < id) dense.push(undefined);
        dense.push(pet);
        denseCount += 1;
      } else sparse.set(id, pet);
    },
    get size() {
      return size;
    },
  };
}
