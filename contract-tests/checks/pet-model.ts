/**
 * The model of the model-based run, deliberately simpler than any server: the pets this run
 * created, keyed by id, the ids of other pets it has seen, and the names of creations the server
 * refused. It never lists, pages or filters anything itself.
 */

/** A pet this run created, as the server acknowledged it: every field the document gives Pet. */
export interface ModelPet {
  readonly id: bigint;
  readonly [field: string]: unknown;
}

/** What the run knows. */
export interface PetModel {
  readonly pets: Map<bigint, ModelPet>;
  /** Ids of pets seen in listings that this run did not create. */
  readonly otherIds: Set<bigint>;
  /** Names sent in creations the server refused with 400: no pet may carry them. */
  readonly rejectedNames: Set<string>;
}

/** A model with nothing in it. */
export function emptyModel(): PetModel {
  return { pets: new Map(), otherIds: new Set(), rejectedNames: new Set() };
}
