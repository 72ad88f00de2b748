/**
 * Pets in id order, and the pages read from either end of them: the oldest first (the front) or
 * the newest first (the back, reversed). A page is handed out as the same frozen array until a
 * pet is inserted inside it, so a reader may key work on it by identity (list-pets.ts keeps each
 * page's JSON text that way). Creates append, so once a list is longer than a page, creating
 * pets never changes an oldest-first page; every create changes the newest-first pages, which are
 * then sliced again once (at most 100 pets).
 */
import type { Pet } from '../base/contract/types.ts';
import type { ListOrder } from '../pipeline/config/list-order.ts';

/** An id-ordered list of pets and its pages. */
export interface PetList {
  /** Inserts keeping id order; creates almost always append, so this is O(1) in practice. */
  insert(pet: Pet): void;
  /** The first `limit` pets in `order`, the same array until one of them changes. */
  page(limit: number, order: ListOrder): readonly Pet[];
  /** Every pet, in id order (not a copy). */
  readonly pets: readonly Pet[];
}

/** An empty list. */
export function createPetList(): PetList {
  const pets: Pet[] = [];
  const oldestPages = new Map<number, readonly Pet[]>();
  const newestPages = new Map<number, readonly Pet[]>();
  return {
    insert(pet) {
      let index = pets.length;
      while (index > 0 && Number((pets[index - 1] as Pet).id) > Number(pet.id)) index -= 1;
      if (index === pets.length) pets.push(pet);
      else pets.splice(index, 0, pet);
      // Oldest-first pages that end at or before the insertion point are unchanged.
      for (const limit of oldestPages.keys()) if (limit > index) oldestPages.delete(limit);
      // A newest-first page holds the last `limit` pets: unchanged only when the insertion is
      // before all of them.
      for (const limit of newestPages.keys())
        if (index >= pets.length - 1 - limit) newestPages.delete(limit);
    },
    page(limit, order) {
      const pages = order === 'oldest-first' ? oldestPages : newestPages;
      let page = pages.get(limit);
      if (page === undefined) {
        page = Object.freeze(
          order === 'oldest-first'
            ? pets.slice(0, limit)
            : pets.slice(Math.max(0, pets.length - limit)).reverse(),
        );
        pages.set(limit, page);
      }
      return page;
    },
    pets,
  };
}
