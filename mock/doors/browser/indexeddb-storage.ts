/**
 * The shared fake's storage in IndexedDB (fake-storage.ts): one database per fake name, with the
 * pets (one record each, so a create writes one pet, not the store), the session and `nextId` in
 * one record and each policy's part of the session in one of its own (written only when it
 * changed: a recording is not written again on every request), and the replies of the last
 * calls. A commit is one transaction over all three, so what is written is always a state the
 * fake was in; commits asked for while one is being written share the next (group commit), so a
 * burst of calls costs a few writes, not one each. A pet a call created is written in the same
 * transaction as that call's reply, never earlier by another call's commit (`runCall`): a call
 * whose answer chaos latency still holds would otherwise have its pet written without its reply,
 * and, sent again after a takeover, run twice.
 *
 * Storage that cannot be opened (disabled for the site, a browser without IndexedDB), that is
 * full, or whose content cannot be read never breaks the page: the problem is told once on the
 * console and the fake goes on in memory (see `setAside` for content it cannot read).
 */

import { isJsonObject } from '../../base/contract/lossless-json.ts';
import type { Pet } from '../../base/contract/types.ts';
import {
  type StorePersistence,
  type StoreSnapshot,
  snapshotProblem,
} from '../../pipeline/persistence.ts';
import {
  type FakeStorage,
  memoryStorage,
  rememberReply,
  type StorageStatus,
} from './fake-storage.ts';
import type { Reply } from './tab-messages.ts';

/** Bumped when the layout changes: a database of another version is left alone. */
const databaseVersion = 1;
const petsStore = 'pets';
const stateStore = 'state';
const repliesStore = 'replies';
const stateKey = 'fake';
/** Each policy's part of the session is kept under this prefix and its name. */
const policyKeyPrefix = 'policy:';

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

/**
 * The mark, kept in localStorage (outside IndexedDB, so what takes one away need not take the
 * other), that this profile has written the fake's state under a name: a database found empty
 * while it is set was lost, not new.
 */
function keptMark(name: string): { readonly set: () => void; readonly isSet: () => boolean } {
  const key = `petstore-fake:kept:${name}`;
  // localStorage may be missing (Node) or throw (storage denied): then there is no mark.
  const storage = (): Storage | undefined => {
    try {
      return typeof localStorage === 'undefined' ? undefined : localStorage;
    } catch {
      return undefined;
    }
  };
  return {
    set() {
      try {
        storage()?.setItem(key, new Date().toISOString());
      } catch {
        // A full or denied localStorage only costs the warning on a later loss.
      }
    },
    isSet: () => {
      try {
        return storage()?.getItem(key) != null;
      } catch {
        return false;
      }
    },
  };
}

/** How long opening the database may take before the fake goes on without it. */
const openTimeoutMs = 5_000;

function openDatabase(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name, databaseVersion);
  request.onupgradeneeded = () => {
    const db = request.result;
    for (const store of [petsStore, stateStore, repliesStore])
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
interface Kept {
  readonly pets: Pet[];
  readonly state: StateRecord | undefined;
  /** The policies' parts of the session, by policy name. */
  readonly policies: Record<string, unknown>;
  readonly replies: Map<string, Reply>;
}

async function readKept(db: IDBDatabase): Promise<Kept> {
  const transaction = db.transaction([petsStore, stateStore, repliesStore], 'readonly');
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
function keptProblem({ pets, state }: Kept): string | undefined {
  if (state === undefined) return pets.length === 0 ? undefined : 'pets without a state record';
  if (state === null || typeof state !== 'object' || !('session' in state))
    return 'the state record is not {"nextId", "session"}';
  return snapshotProblem({ pets, nextId: state.nextId })?.replace(/^snapshot/, 'the pets');
}

/** Why a storage error happened, in the user's words, from the DOMException's name. */
function describeFailure(error: unknown, doing: string): string {
  const name = (error as { name?: unknown } | null)?.name;
  const text = `${String(name ?? 'Error')}: ${String((error as Error | null)?.message ?? error)}`;
  if (name === 'QuotaExceededError') return `the browser's storage for this site is full (${text})`;
  return `${doing} failed (${text})`;
}

/**
 * Opens the fake's storage in IndexedDB under `name`. Never rejects: storage the browser refuses
 * gives a memory-only storage, with the reason told through `warn`.
 */
export async function openIndexedDbStorage(
  name: string,
  warn: (message: string) => void,
): Promise<FakeStorage> {
  const inMemory = (problem: string) => {
    warn(
      `petstore-fake: ${problem}: the shared fake keeps its state in memory only, so a reload of the last tab starts from the seed. Allow site data for this origin (or leave private browsing) to keep it.`,
    );
    return memoryStorage(problem);
  };
  if (typeof indexedDB === 'undefined') return inMemory('this browser has no IndexedDB');
  let db: IDBDatabase;
  let kept: Kept;
  try {
    db = await openDatabase(name);
  } catch (error) {
    return inMemory(describeFailure(error, 'opening IndexedDB'));
  }
  try {
    kept = await readKept(db);
  } catch (error) {
    db.close();
    return inMemory(describeFailure(error, 'reading IndexedDB'));
  }

  /** `writing`: every change is written; `stopped`: nothing is, until the fake is reset. */
  let mode: 'writing' | 'stopped' = 'writing';
  let status: StorageStatus = { kept: 'indexeddb' };
  /** Whether what was kept is loaded: not once it was set aside. */
  let loadable = true;
  const replies = kept.replies;
  let nextId = kept.state?.nextId ?? 1;
  // Changes not written yet. `replaceWith` is a whole new store (a reset, a restore, the seed).
  let replaceWith: StoreSnapshot | undefined;
  /** Pets created and not written yet, each with the call that created it (see `runCall`). */
  let created: { readonly pet: Pet; readonly by: object | undefined }[] = [];
  /** The call whose synchronous start is running now: what it creates is its own. */
  let running: object | undefined;
  /** Calls that have their reply, whose pets the next write takes with it. */
  let answeredCalls = new Set<object>();
  let newReplies: [string, Reply][] = [];
  let readSession: (() => unknown) | undefined;
  let closed = false;
  /** Each policy's part as last written, to write it again only once it changed. */
  const writtenParts = new Map<string, unknown>();

  const stop = (problem: string, advice: string) => {
    mode = 'stopped';
    status = { kept: 'memory', problem };
    replaceWith = undefined;
    created = [];
    newReplies = [];
    warn(`petstore-fake: ${problem}: ${advice}`);
  };

  /** What was kept cannot be read: the fake starts from its seed, in memory until a reset. */
  const setAside = (why: string) => {
    loadable = false;
    stop(
      `the fake this browser kept could not be read (${why})`,
      'this page starts from the seed and keeps its state in memory only; fake.control.reset() starts over with storage.',
    );
  };

  const problem = keptProblem(kept);
  if (problem !== undefined) setAside(problem);
  const mark = keptMark(name);
  /** Whether this storage set the mark yet: once, at its first write (a profile from before the mark gets it then). */
  let marked = false;
  if (kept.state === undefined && mark.isSet()) {
    const lost = `this browser profile kept the fake's state under "${name}" before (a mark in localStorage says so), but its IndexedDB database is empty`;
    status = { ...status, lost };
    warn(
      `petstore-fake: ${lost}: the fake starts from the seed (earlier pets gone, ids given out again). Site data cleared from IndexedDB only, or the browser dropped a database it could not recover after a crash.`,
    );
  }

  db.onversionchange = () => {
    // A deleted database cannot be written again through this connection.
    closed = true;
    db.close();
    stop(
      'the browser storage of the fake was deleted or changed by another page (DevTools "Clear site data"?)',
      'the fake goes on in memory; reload to keep its state again.',
    );
  };

  const persistence: StorePersistence = {
    load: () => (loadable && kept.state !== undefined ? { pets: kept.pets, nextId } : undefined),
    appendCreated(pet) {
      if (mode !== 'writing') return;
      created.push({ pet, by: running });
      nextId = Math.max(nextId, Number(pet.id) + 1);
    },
    replaceAll(snapshot) {
      // A reset or a restore after the fake started is a new beginning: write it whole again.
      if (mode === 'stopped' && readSession !== undefined && !closed) {
        mode = 'writing';
        status = { kept: 'indexeddb' };
      }
      if (mode !== 'writing') return;
      replaceWith = snapshot;
      created = [];
      nextId = snapshot.nextId;
    },
    session: {
      load: () => {
        const session = loadable ? kept.state?.session : undefined;
        // The session as the fake saved it: its policies' parts back in their place.
        return isJsonObject(session) ? { ...session, policies: kept.policies } : session;
      },
      attach(read) {
        readSession = read;
      },
    },
  };

  const write = async () => {
    if (mode !== 'writing' || closed) return;
    const replace = replaceWith;
    const answered = newReplies;
    // Pets of calls still running wait for their own call's write, with its reply.
    const done = answeredCalls;
    answeredCalls = new Set();
    const pets: Pet[] = [];
    const waiting: typeof created = [];
    for (const entry of created) {
      if (entry.by === undefined || done.has(entry.by)) pets.push(entry.pet);
      else waiting.push(entry);
    }
    replaceWith = undefined;
    created = waiting;
    newReplies = [];
    try {
      const transaction = db.transaction([petsStore, stateStore, repliesStore], 'readwrite');
      const petStore = transaction.objectStore(petsStore);
      if (replace !== undefined) {
        petStore.clear();
        for (const pet of replace.pets) petStore.put(pet, Number(pet.id));
      }
      for (const pet of pets) petStore.put(pet, Number(pet.id));
      const { policies = {}, ...session } = (readSession?.() ?? {}) as {
        policies?: Record<string, unknown>;
      };
      const record: StateRecord = { nextId, session };
      const states = transaction.objectStore(stateStore);
      states.put(record, stateKey);
      // A policy's part is the same object while it has not changed (pipeline/session.ts).
      const changedParts = Object.entries(policies).filter(
        ([name, part]) => writtenParts.get(name) !== part,
      );
      for (const [name, part] of changedParts) states.put(part, `${policyKeyPrefix}${name}`);
      const replyStore = transaction.objectStore(repliesStore);
      for (const [id, reply] of answered) replyStore.put(reply, id);
      // Only the replies still remembered are kept: the oldest leave the database with them.
      for (const id of dropped(answered)) replyStore.delete(id);
      await finished(transaction);
      for (const [name, part] of changedParts) writtenParts.set(name, part);
      if (!marked) {
        marked = true;
        mark.set();
      }
    } catch (error) {
      stop(
        describeFailure(error, 'writing to IndexedDB'),
        'the fake goes on in memory (what it did since is not kept); fake.control.reset() tries storage again.',
      );
    }
  };

  /** Reply ids written before that the memory of replies no longer holds. */
  const written = new Set(replies.keys());
  const dropped = (answered: readonly [string, Reply][]) => {
    for (const [id] of answered) written.add(id);
    const gone = [...written].filter((id) => !replies.has(id));
    for (const id of gone) written.delete(id);
    return gone;
  };

  // Group commit: one write at a time; commits asked for meanwhile share the next one.
  let current: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const commit = (reply: readonly [id: string, reply: Reply] | undefined): Promise<void> => {
    if (reply !== undefined) {
      rememberReply(replies, ...reply);
      if (mode === 'writing') newReplies.push([...reply]);
    }
    if (current === undefined) {
      current = write().finally(() => {
        current = undefined;
      });
      return current;
    }
    next ??= current.then(() => {
      next = undefined;
      return commit(undefined);
    });
    return next;
  };

  const runCall: FakeStorage['runCall'] = (id, run) => {
    const call = {};
    const outer = running;
    running = call;
    let replied: Promise<Reply>;
    try {
      replied = run();
    } finally {
      running = outer;
    }
    const written = async (reply: Reply) => {
      answeredCalls.add(call);
      await commit(id === undefined ? undefined : [id, reply]);
      return reply;
    };
    return replied.then(written, (error: unknown) => {
      // Never expected (a run answers every failure): its pets go with the next write anyway.
      answeredCalls.add(call);
      throw error;
    });
  };

  return {
    persistence,
    replies,
    commit: () => commit(undefined),
    runCall,
    setAside,
    status: () => status,
    close() {
      closed = true;
      db.close();
    },
  };
}
