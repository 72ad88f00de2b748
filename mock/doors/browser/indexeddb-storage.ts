/**
 * Where the browser's shared fake keeps its state between leading tabs, reloads and browser
 * restarts: its persistence plus the replies of the calls answered, so a tab that takes over
 * answers a call sent again with its reply instead of running it twice. A call is answered only
 * once its write is done: no acknowledged change is lost.
 *
 * One IndexedDB database per fake name: the pets (one record each), the session and `nextId` in
 * one record, each policy's part in one of its own (written only when it changed), the replies of
 * the last calls. A commit is one transaction over all three, so what is written is always a state
 * the fake was in; commits asked for during a write share the next (group commit). A pet a call
 * created is written with that call's reply, never earlier by another call's commit (`runCall`),
 * else a call whose answer chaos latency holds could, sent again after a takeover, run twice.
 * Storage that cannot be opened, is full or cannot be read never breaks the page: the problem is
 * told once on the console and the fake goes on in memory.
 */

import { isJsonObject } from '../../base/contract/lossless-json.ts';
import type { Pet } from '../../base/contract/types.ts';
import {
  type StorePersistence,
  type StoreSnapshot,
  snapshotProblem,
} from '../../pipeline/persistence.ts';
import type { Reply } from './tab-messages.ts';

/** Where the state is kept, and why not in the browser's storage when it is not. */
export interface StorageStatus {
  readonly kept: 'indexeddb' | 'memory';
  /** What went wrong with the browser's storage, when it did. */
  readonly problem?: string;
  /** Set when the fake started from its seed although a mark says this profile kept its state. */
  readonly lost?: string;
}

/** The most replies kept: a tab sends again only the calls it had not been answered. */
const maxReplies = 256;
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
/** How long opening the database may take before the fake goes on without it. */
const openTimeoutMs = 5_000;

/** The record beside the pets: `nextId` and the session without its policies' parts. */
interface StateRecord {
  readonly nextId: number;
  readonly session: unknown;
}

/** What the database held when it was opened. */
interface Kept {
  readonly pets: Pet[];
  readonly state: StateRecord | undefined;
  /** The policies' parts of the session, by policy name. */
  readonly policies: Record<string, unknown>;
  readonly replies: Map<string, Reply>;
}

function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Opens (or creates) the database under `name`; refuses past `openTimeoutMs`. */
function openDatabase(name: string): Promise<IDBDatabase> {
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
    const clear = () => clearTimeout(timer);
    opened.then(clear, clear);
  });
  return Promise.race([opened, timeout]).catch((error: unknown) => {
    opened.then((db) => db.close()).catch(() => {});
    throw error;
  });
}

async function readKept(db: IDBDatabase): Promise<Kept> {
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
function keptProblem({ pets, state }: Kept): string | undefined {
  if (state === undefined) return pets.length === 0 ? undefined : 'pets without a state record';
  if (state === null || typeof state !== 'object' || !('session' in state))
    return 'the state record is not {"nextId", "session"}';
  return snapshotProblem({ pets, nextId: state.nextId })?.replace(/^snapshot/, 'the pets');
}

/**
 * Sets (when asked) and reads the mark in localStorage, outside IndexedDB so what takes one away
 * need not take the other, that this profile wrote the fake under `name`: a database found empty
 * while it is set was lost, not new. A missing or refused localStorage keeps no mark.
 */
function keptMark(name: string, set = false): boolean {
  try {
    if (typeof localStorage === 'undefined') return false;
    if (set) localStorage.setItem(`petstore-fake:kept:${name}`, new Date().toISOString());
    return localStorage.getItem(`petstore-fake:kept:${name}`) != null;
  } catch {
    return false;
  }
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
 * gives a storage that keeps nothing past the tabs, with the reason told through `warn`.
 */
export async function openIndexedDbStorage(
  name: string,
  warn: (message: string) => void,
): Promise<IndexedDbStorage> {
  const inMemory = (problem: string) => {
    warn(
      `petstore-fake: ${problem}: the shared fake keeps its state in memory only, so a reload of the last tab starts from the seed. Allow site data for this origin (or leave private browsing) to keep it.`,
    );
    return new IndexedDbStorage(name, warn, { problem });
  };
  if (typeof indexedDB === 'undefined') return inMemory('this browser has no IndexedDB');
  let db: IDBDatabase;
  try {
    db = await openDatabase(name);
  } catch (error) {
    return inMemory(describeFailure(error, 'opening IndexedDB'));
  }
  let kept: Kept;
  try {
    kept = await readKept(db);
  } catch (error) {
    db.close();
    return inMemory(describeFailure(error, 'reading IndexedDB'));
  }
  return new IndexedDbStorage(name, warn, { db, kept });
}

/**
 * The shared fake's storage, as the leading tab uses it: over an open database and what it held,
 * or, given the `problem` that kept the database away, over nothing past the tabs.
 */
export class IndexedDbStorage {
  /** The fake's persistence, or `undefined` when nothing is kept beyond the page. */
  readonly persistence: StorePersistence | undefined;
  /** Replies already written, by call id. */
  readonly replies: Map<string, Reply>;
  readonly #name: string;
  readonly #db: IDBDatabase | undefined;
  readonly #kept: Kept;
  readonly #warn: (message: string) => void;
  /** Kept `indexeddb` while every change is written; `memory` while none is, until a reset. */
  #status: StorageStatus = { kept: 'indexeddb' };
  /** Whether what was kept is loaded: not once it was set aside. */
  #loadable = true;
  #nextId: number;
  /** A whole new store (a reset, a restore, the seed) not written yet. */
  #replaceWith: StoreSnapshot | undefined;
  /** Pets created and not written yet, each with the call that created it, if any (`runCall`). */
  #created: { readonly pet: Pet; readonly by: object | undefined }[] = [];
  /** The call whose synchronous start is running now: what it creates is its own. */
  #running: object | undefined;
  /** Calls that have their reply, whose pets the next write takes with it. */
  #answeredCalls = new Set<object>();
  #newReplies: [string, Reply][] = [];
  #readSession: (() => unknown) | undefined;
  #closed = false;
  /** Each policy's part as last written, to write it again only once it changed. */
  readonly #writtenParts = new Map<string, unknown>();
  /** Reply ids written before, to delete those the memory of replies has let go. */
  readonly #writtenReplies: Set<string>;
  /** Whether this storage set the mark yet: at its first write, so an older profile gets it too. */
  #marked = false;
  // Group commit: one write at a time; commits asked for meanwhile share the next one.
  #current: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(
    name: string,
    warn: (message: string) => void,
    opened: { readonly db: IDBDatabase; readonly kept: Kept } | { readonly problem: string },
  ) {
    const kept: Kept =
      'kept' in opened
        ? opened.kept
        : { pets: [], state: undefined, policies: {}, replies: new Map() };
    this.#name = name;
    this.#db = 'db' in opened ? opened.db : undefined;
    this.#kept = kept;
    this.#warn = warn;
    this.replies = kept.replies;
    this.#writtenReplies = new Set(kept.replies.keys());
    this.#nextId = kept.state?.nextId ?? 1;
    if ('problem' in opened) {
      this.persistence = undefined;
      this.#status = { kept: 'memory', problem: opened.problem };
      return;
    }
    const { db } = opened;
    this.persistence = this.#storePersistence();
    const problem = keptProblem(kept);
    if (problem !== undefined) this.setAside(problem);
    if (kept.state === undefined && keptMark(name)) {
      const lost = `this browser profile kept the fake's state under "${name}" before (a mark in localStorage says so), but its IndexedDB database is empty`;
      this.#status = { ...this.#status, lost };
      warn(
        `petstore-fake: ${lost}: the fake starts from the seed (earlier pets gone, ids given out again). Site data cleared from IndexedDB only, or the browser dropped a database it could not recover after a crash.`,
      );
    }
    db.onversionchange = () => {
      // A deleted database cannot be written again through this connection.
      this.#closed = true;
      db.close();
      this.#stop(
        'the browser storage of the fake was deleted or changed by another page (DevTools "Clear site data"?)',
        'the fake goes on in memory; reload to keep its state again.',
      );
    };
  }

  /**
   * Writes what changed since the last write; resolves once written, or at once when nothing is
   * kept. Never rejects: a failed write is reported and the fake goes on in memory until a reset.
   */
  commit(): Promise<void> {
    return this.#commitWith(undefined);
  }

  /**
   * Runs one call and resolves with its reply once written: what the call creates while `run`
   * starts (the core creates a pet synchronously) is written with this call's reply, in one
   * transaction, so a call sent again after a takeover finds both its effect and reply or neither.
   */
  runCall(id: string | undefined, run: () => Promise<Reply>): Promise<Reply> {
    const call = {};
    const outer = this.#running;
    this.#running = call;
    let replied: Promise<Reply>;
    try {
      replied = run();
    } finally {
      this.#running = outer;
    }
    const written = async (reply: Reply) => {
      this.#answeredCalls.add(call);
      await this.#commitWith(id === undefined ? undefined : [id, reply]);
      return reply;
    };
    return replied.then(written, (error: unknown) => {
      // Never expected (a run answers every failure): its pets go with the next write anyway.
      this.#answeredCalls.add(call);
      throw error;
    });
  }

  /** Sets aside what the fake could not read: it starts from its seed, in memory until a reset. */
  setAside(why: string): void {
    this.#loadable = false;
    this.#stop(
      `the fake this browser kept could not be read (${why})`,
      'this page starts from the seed and keeps its state in memory only; fake.control.reset() starts over with storage.',
    );
  }

  /** Where the state is kept now. */
  status(): StorageStatus {
    return this.#status;
  }

  /** Closes the storage (a tab that stops leading). */
  close(): void {
    this.#closed = true;
    this.#db?.close();
  }

  #writing(): boolean {
    return this.#status.kept === 'indexeddb';
  }

  /** The fake's persistence: creates and replacements wait here for the next commit. */
  #storePersistence(): StorePersistence {
    return {
      load: () =>
        this.#loadable && this.#kept.state !== undefined
          ? { pets: this.#kept.pets, nextId: this.#nextId }
          : undefined,
      appendCreated: (pet) => {
        if (!this.#writing()) return;
        this.#created.push({ pet, by: this.#running });
        this.#nextId = Math.max(this.#nextId, Number(pet.id) + 1);
      },
      replaceAll: (snapshot) => {
        // A reset or a restore after the fake started is a new beginning: write it whole again.
        if (!this.#writing() && this.#readSession !== undefined && !this.#closed)
          this.#status = { kept: 'indexeddb' };
        if (!this.#writing()) return;
        this.#replaceWith = snapshot;
        this.#created = [];
        this.#nextId = snapshot.nextId;
      },
      session: {
        load: () => {
          const session = this.#loadable ? this.#kept.state?.session : undefined;
          // The session as the fake saved it: its policies' parts back in their place.
          return isJsonObject(session) ? { ...session, policies: this.#kept.policies } : session;
        },
        attach: (read) => {
          this.#readSession = read;
        },
      },
    };
  }

  #stop(problem: string, advice: string): void {
    this.#status = { kept: 'memory', problem };
    this.#replaceWith = undefined;
    this.#created = [];
    this.#newReplies = [];
    this.#warn(`petstore-fake: ${problem}: ${advice}`);
  }

  #commitWith(reply: readonly [id: string, reply: Reply] | undefined): Promise<void> {
    if (reply !== undefined) {
      // Among the last `maxReplies`, the oldest dropped.
      this.replies.set(...reply);
      if (this.replies.size > maxReplies)
        this.replies.delete(this.replies.keys().next().value as string);
      if (this.#writing()) this.#newReplies.push([...reply]);
    }
    if (this.#current === undefined) {
      this.#current = this.#write().finally(() => {
        this.#current = undefined;
      });
      return this.#current;
    }
    this.#next ??= this.#current.then(() => {
      this.#next = undefined;
      return this.#commitWith(undefined);
    });
    return this.#next;
  }

  /** Writes the changes and the session in one transaction; a running call's pets wait for it. */
  async #write(): Promise<void> {
    if (!this.#writing() || this.#closed || this.#db === undefined) return;
    const done = this.#answeredCalls;
    this.#answeredCalls = new Set();
    const goes = (entry: { readonly by: object | undefined }) =>
      entry.by === undefined || done.has(entry.by);
    const pets = this.#created.filter(goes).map((entry) => entry.pet);
    this.#created = this.#created.filter((entry) => !goes(entry));
    const replace = this.#replaceWith;
    const answered = this.#newReplies;
    this.#replaceWith = undefined;
    this.#newReplies = [];
    try {
      const { policies = {}, ...session } = (this.#readSession?.() ?? {}) as {
        policies?: Record<string, unknown>;
      };
      // A policy's part is the same object while it has not changed (pipeline/session.ts).
      const changedParts = Object.entries(policies).filter(
        ([name, part]) => this.#writtenParts.get(name) !== part,
      );
      const transaction = this.#db.transaction(allStores, 'readwrite');
      const petStore = transaction.objectStore(petsStore);
      if (replace !== undefined) {
        petStore.clear();
        for (const pet of replace.pets) petStore.put(pet, Number(pet.id));
      }
      for (const pet of pets) petStore.put(pet, Number(pet.id));
      const states = transaction.objectStore(stateStore);
      states.put({ nextId: this.#nextId, session } satisfies StateRecord, stateKey);
      for (const [name, part] of changedParts) states.put(part, `${policyKeyPrefix}${name}`);
      const replyStore = transaction.objectStore(repliesStore);
      for (const [id, reply] of answered) {
        replyStore.put(reply, id);
        this.#writtenReplies.add(id);
      }
      // Only the replies still remembered are kept: the oldest leave the database with them.
      for (const id of this.#writtenReplies) {
        if (this.replies.has(id)) continue;
        replyStore.delete(id);
        this.#writtenReplies.delete(id);
      }
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () =>
          reject(transaction.error ?? new DOMException('aborted', 'AbortError'));
      });
      for (const [name, part] of changedParts) this.#writtenParts.set(name, part);
      if (!this.#marked) {
        this.#marked = true;
        keptMark(this.#name, true);
      }
    } catch (error) {
      this.#stop(
        describeFailure(error, 'writing to IndexedDB'),
        'the fake goes on in memory (what it did since is not kept); fake.control.reset() tries storage again.',
      );
    }
  }
}
