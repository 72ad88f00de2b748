/**
 * Where a fake keeps its state across restarts, when asked to. Environment-free: the HTTP door
 * supplies a file (mock/doors/cli/state-file.ts), the browser door the browser's storage
 * (mock/doors/browser/indexeddb-storage.ts); tests use none.
 */
import { checkPet, describeIssues } from '../base/contract/schemas.ts';
import type { Pet } from '../base/contract/types.ts';

/** The largest id the fake keeps exact (2^53 - 1); ids and `nextId` past it are refused. */
export const maxPetId = Number.MAX_SAFE_INTEGER;

/** A point-in-time copy of the store, as `snapshot()` returns and `restore()` accepts. */
export interface StoreSnapshot {
  readonly pets: readonly Pet[];
  readonly nextId: number;
}

/**
 * A durable home for the store's state. Every method is synchronous on purpose: see appendCreated.
 * A home that writes asynchronously (browser storage) buffers the change here and its door holds
 * the answer back until the write is done, which keeps the same promise.
 */
export interface StorePersistence {
  /** The state saved last time, or `undefined` when there is none yet. */
  load(): StoreSnapshot | undefined;
  /** Records one created pet. Returns only once it is written, so no 201 ever outruns its record. */
  appendCreated(pet: Pet): void;
  /** Replaces everything saved with a snapshot (on reset and restore). */
  replaceAll(snapshot: StoreSnapshot): void;
  /** Also keeps the fake's session (clock, keys, windows, bans, QA records): see SessionPersistence. */
  readonly session?: SessionPersistence;
}

/** A durable home for what a fake holds beyond its pets (mock/pipeline/session.ts). */
interface SessionPersistence {
  /** The session saved last time (checked whole when the fake loads it), or `undefined`. */
  load(): unknown;
  /**
   * Called once, when the fake is built, with the function that reads its session as it stands:
   * the home calls it whenever it writes.
   */
  attach(read: () => unknown): void;
}

/** What is wrong with `snapshot` (the first problem), or `undefined` when it can be restored whole. */
export function snapshotProblem(snapshot: unknown): string | undefined {
  const value = snapshot as Partial<StoreSnapshot> | null;
  if (value === null || typeof value !== 'object' || !Array.isArray(value.pets))
    return 'snapshot must be an object with a "pets" array';
  const extra = Object.keys(value).filter((field) => field !== 'pets' && field !== 'nextId');
  if (extra.length > 0)
    return `snapshot has unknown field(s) ${extra.join(', ')}; only pets, nextId`;
  const nextId = value.nextId;
  if (typeof nextId !== 'number' || !Number.isSafeInteger(nextId) || nextId < 1)
    return `snapshot.nextId must be an integer from 1 to ${maxPetId} (2^53 - 1), got ${String(nextId)}`;
  const seen = new Set<number>();
  for (const [index, pet] of value.pets.entries()) {
    const issues = checkPet(pet);
    if (issues.length > 0) return `snapshot.pets[${index}]: ${describeIssues(issues)}`;
    const id = (pet as Pet).id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
      return `snapshot.pets[${index}].id must be an integer from 1 to ${maxPetId} (2^53 - 1), got ${String(id)}`;
    if (seen.has(id)) return `snapshot.pets[${index}].id ${id} is used twice`;
    seen.add(id);
  }
  return undefined;
}
