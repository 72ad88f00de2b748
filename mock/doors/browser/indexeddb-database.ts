/**
 * The shared fake's database in IndexedDB, as indexeddb-storage.ts keeps it: its layout (the pets,
 * one record each; the state record and each policy's part of the session; the replies of the last
 * calls), how it is opened (with a time-out), read whole, and written in one transaction.
 */
import type { Pet } from '../../base/contract/types.ts';
import { type StoreSnapshot, snapshotProblem } from '../../pipeline/persistence.ts';
import type { Reply } from './tab-messages.ts';

/** Bumped when the layout changes: a database of another version is left alone. */
const databaseVersion = 1;
const petsStore = 'pets';
const stateStore = 'state';
const repliesStore = 'replies';
const stateKey = 'fake';
/** Each policy's part of the session is kept under this prefix and its name. */
const policyKeyPrefix = 'policy:';
/** Every object store, each read and written in one transaction. */
const allStores = [petsStore, stateStore, repliesStore];

/**
 * The record beside the pets: what the store's counter and the session were at the last write,
 * the session without its policies' parts (kept under their own keys).
 */
interface StateRecord {
  readonly nextId: number;
  readonly session: unknown;
}

function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException('aborted', 'AbortError'));
  });
}

/** How long opening the database may take before the fake goes on without it. */
const openTimeoutMs = 5_000;

/** Opens (or creates) the database under `name`; refuses past `openTimeoutMs`. */
export function openDatabase(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name, databaseVersion);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const store of allStores)
      if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
  };
  // An open that never settles (blocked by another connection, a stuck backend) must not keep
  // every tab waiting for the fake: past the time-out it is a refusal, and a late success closes.
  const opened = settled(request);
  const timeout = new Promise<never>((_, reject) => {
    const timer = setTimeout(
      () => reject(new DOMException(`no answer in ${openTimeoutMs / 1000} s`, 'TimeoutError')),
      openTimeoutMs,
    );
    opened.then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
  });
  return Promise.race([opened, timeout]).catch((error: unknown) => {
    opened.then((db) => db.close()).catch(() => {});
    throw error;
  });
}

/** What the database held when it was opened. */
export interface Kept {
  readonly pets: Pet[];
  readonly state: StateRecord | undefined;
  /** The policies' parts of the session, by policy name. */
  readonly policies: Record<string, unknown>;
  readonly replies: Map<string, Reply>;
}

export async function readKept(db: IDBDatabase): Promise<Kept> {
  const transaction = db.transaction(allStores, 'readonly');
  const [pets, stateKeys, stateValues, replyIds, replyValues] = await Promise.all([
    settled(transaction.objectStore(petsStore).getAll()),
    settled(transaction.objectStore(stateStore).getAllKeys()),
    settled(transaction.objectStore(stateStore).getAll()),
    settled(transaction.objectStore(repliesStore).getAllKeys()),
    settled(transaction.objectStore(repliesStore).getAll()),
  ]);
  let state: unknown;
  const policies: Record<string, unknown> = {};
  stateKeys.forEach((key, index) => {
    const value = stateValues[index];
    if (key === stateKey) state = value;
    else if (typeof key === 'string' && key.startsWith(policyKeyPrefix))
      policies[key.slice(policyKeyPrefix.length)] = value;
  });
  const replies = new Map<string, Reply>(
    replyValues.map((value, index) => [String(replyIds[index]), value as Reply]),
  );
  return { pets: pets as Pet[], state: state as StateRecord | undefined, policies, replies };
}

/** Why what was kept cannot be loaded, or `undefined` when it can. */
export function keptProblem({ pets, state }: Kept): string | undefined {
  if (state === undefined) return pets.length === 0 ? undefined : 'pets without a state record';
  if (state === null || typeof state !== 'object' || !('session' in state))
    return 'the state record is not {"nextId", "session"}';
  return snapshotProblem({ pets, nextId: state.nextId })?.replace(/^snapshot/, 'the pets');
}

/** One write: everything in it lands in one transaction, or nothing does. */
interface KeptWrite {
  /** A whole new store (a reset, a restore, the seed), written before `pets`. */
  readonly replace: StoreSnapshot | undefined;
  readonly pets: readonly Pet[];
  readonly state: StateRecord;
  /** The policies' parts of the session that changed, by policy name. */
  readonly parts: readonly [string, unknown][];
  readonly replies: readonly [string, Reply][];
  /** The ids of replies to delete, asked once the replies are put. */
  readonly droppedReplies: () => readonly string[];
}

/** Writes `write` in one transaction; resolves once it is committed. */
export async function writeKept(db: IDBDatabase, write: KeptWrite): Promise<void> {
  const transaction = db.transaction(allStores, 'readwrite');
  const petStore = transaction.objectStore(petsStore);
  if (write.replace !== undefined) {
    petStore.clear();
    for (const pet of write.replace.pets) petStore.put(pet, Number(pet.id));
  }
  for (const pet of write.pets) petStore.put(pet, Number(pet.id));
  const states = transaction.objectStore(stateStore);
  states.put(write.state, stateKey);
  for (const [name, part] of write.parts) states.put(part, `${policyKeyPrefix}${name}`);
  const replyStore = transaction.objectStore(repliesStore);
  for (const [id, reply] of write.replies) replyStore.put(reply, id);
  for (const id of write.droppedReplies()) replyStore.delete(id);
  await finished(transaction);
}
