/**
 * Pets in id order, and the pages read from the front of them. A page (the first `limit` pets)
 * is handed out as the same frozen array until a pet is inserted inside it, so a reader may key
 * work on it by identity (list-pets.ts keeps each page's JSON text that way). Creates append, so
 * once a list is longer than a page, creating pets never changes that page.
 */
import type { Pet } from '../../base/contract/types.ts';

/** An id-ordered list of pets and its pages. */
export interface PetList {
  /** Inserts keeping id order; creates almost always append, so this is O(1) in practice. */
  insert(pet: Pet): void;
  /** The first `limit` pets, the same array until one of them changes. */
  page(limit: number): readonly Pet[];
  /** Every pet, in id order (not a copy). */
  readonly pets: readonly Pet[];
}

/** An empty list. */
export function createPetList(): PetList {
  const pets: Pet[] = [];
  const pages = new Map<number, readonly Pet[]>();
  return {
    insert(pet) {
      let index = pets.length;
      while (index > 0 && Number((pets[index - 1] as Pet).id) > Number(pet.id)) index -= 1;
      if (index === pets.length) pets.push(pet);
      else pets.splice(index, 0, pet);
      // Pages that end at or before the insertion point are unchanged.
      for (const limit of pages.keys()) if (limit > index) pages.delete(limit);
    },
    page(limit) {
      let page = pages.get(limit);
      if (page === undefined) {
        page = Object.freeze(pets.slice(0, limit));
        pages.set(limit, page);
      }
      return page;
    },
    pets,
  };
}
