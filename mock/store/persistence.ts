/**
 * Where a store keeps its state across restarts, when asked to. Environment-free: the HTTP door
 * supplies a file (mock/cli/state-file.ts); the browser and tests use none.
 */
import type { Pet } from '../contract/types.ts';

/** A point-in-time copy of the store, as `snapshot()` returns and `restore()` accepts. */
export interface StoreSnapshot {
  readonly pets: readonly Pet[];
  readonly nextId: number;
}

/** A durable home for the store's state. Every method is synchronous on purpose: see appendCreated. */
export interface StorePersistence {
  /** The state saved last time, or `undefined` when there is none yet. */
  load(): StoreSnapshot | undefined;
  /** Records one created pet. Returns only once it is written, so no 201 ever outruns its record. */
  appendCreated(pet: Pet): void;
  /** Replaces everything saved with a snapshot (on reset and restore). */
  replaceAll(snapshot: StoreSnapshot): void;
}
