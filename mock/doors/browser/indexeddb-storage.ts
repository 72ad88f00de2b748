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
import type { StorePersistence, StoreSnapshot } from '../../pipeline/persistence.ts';
import {
  type FakeStorage,
  memoryStorage,
  rememberReply,
  type StorageStatus,
} from './fake-storage.ts';
import { type Kept, keptProblem, openDatabase, readKept, writeKept } from './indexeddb-database.ts';
import { type KeptMark, keptMark } from './kept-mark.ts';
import type { Reply } from './tab-messages.ts';

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
  return new IndexedDbStorage(name, db, kept, warn);
}

/** What the next write takes: a whole new store, the pets created since, the replies given since. */
interface PendingWrite {
  readonly replace: StoreSnapshot | undefined;
  readonly pets: readonly Pet[];
  readonly answered: readonly [string, Reply][];
}

/** A pet created and not written yet, with the call that created it (undefined: no call's). */
interface CreatedPet {
  readonly pet: Pet;
  readonly by: object | undefined;
}

/** The storage over an open database and what it held. */
class IndexedDbStorage implements FakeStorage {
  readonly persistence: StorePersistence;
  readonly replies: Map<string, Reply>;
  readonly #db: IDBDatabase;
  readonly #kept: Kept;
  readonly #warn: (message: string) => void;
  /** `writing`: every change is written; `stopped`: nothing is, until the fake is reset. */
  #mode: 'writing' | 'stopped' = 'writing';
  #currentStatus: StorageStatus = { kept: 'indexeddb' };
  /** Whether what was kept is loaded: not once it was set aside. */
  #loadable = true;
  #nextId: number;
  // Changes not written yet. `replaceWith` is a whole new store (a reset, a restore, the seed).
  #replaceWith: StoreSnapshot | undefined;
  /** Pets created and not written yet, each with the call that created it (see `runCall`). */
  #created: CreatedPet[] = [];
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
  readonly #mark: KeptMark;
  /** Whether this storage set the mark yet: once, at its first write (a profile from before the mark gets it then). */
  #marked = false;
  // Group commit: one write at a time; commits asked for meanwhile share the next one.
  #current: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(name: string, db: IDBDatabase, kept: Kept, warn: (message: string) => void) {
    this.#db = db;
    this.#kept = kept;
    this.#warn = warn;
    this.replies = kept.replies;
    this.#writtenReplies = new Set(kept.replies.keys());
    this.#nextId = kept.state?.nextId ?? 1;
    this.persistence = this.#storePersistence();
    const problem = keptProblem(kept);
    if (problem !== undefined) this.setAside(problem);
    this.#mark = keptMark(name);
    if (kept.state === undefined && this.#mark.isSet()) {
      const lost = `this browser profile kept the fake's state under "${name}" before (a mark in localStorage says so), but its IndexedDB database is empty`;
      this.#currentStatus = { ...this.#currentStatus, lost };
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

  commit(): Promise<void> {
    return this.#commitWith(undefined);
  }

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

  /** What was kept cannot be read: the fake starts from its seed, in memory until a reset. */
  setAside(why: string): void {
    this.#loadable = false;
    this.#stop(
      `the fake this browser kept could not be read (${why})`,
      'this page starts from the seed and keeps its state in memory only; fake.control.reset() starts over with storage.',
    );
  }

  status(): StorageStatus {
    return this.#currentStatus;
  }

  close(): void {
    this.#closed = true;
    this.#db.close();
  }

  /** The fake's persistence: creates and replacements wait here for the next commit. */
  #storePersistence(): StorePersistence {
    return {
      load: () =>
        this.#loadable && this.#kept.state !== undefined
          ? { pets: this.#kept.pets, nextId: this.#nextId }
          : undefined,
      appendCreated: (pet) => {
        if (this.#mode !== 'writing') return;
        this.#created.push({ pet, by: this.#running });
        this.#nextId = Math.max(this.#nextId, Number(pet.id) + 1);
      },
      replaceAll: (snapshot) => {
        // A reset or a restore after the fake started is a new beginning: write it whole again.
        if (this.#mode === 'stopped' && this.#readSession !== undefined && !this.#closed) {
          this.#mode = 'writing';
          this.#currentStatus = { kept: 'indexeddb' };
        }
        if (this.#mode !== 'writing') return;
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
    this.#mode = 'stopped';
    this.#currentStatus = { kept: 'memory', problem };
    this.#replaceWith = undefined;
    this.#created = [];
    this.#newReplies = [];
    this.#warn(`petstore-fake: ${problem}: ${advice}`);
  }

  #commitWith(reply: readonly [id: string, reply: Reply] | undefined): Promise<void> {
    if (reply !== undefined) {
      rememberReply(this.replies, ...reply);
      if (this.#mode === 'writing') this.#newReplies.push([...reply]);
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

  /** Takes what the next write holds; pets of calls still running wait for their own call's write. */
  #takePending(): PendingWrite {
    const done = this.#answeredCalls;
    this.#answeredCalls = new Set();
    const pets: Pet[] = [];
    const waiting: CreatedPet[] = [];
    for (const entry of this.#created) {
      if (entry.by === undefined || done.has(entry.by)) pets.push(entry.pet);
      else waiting.push(entry);
    }
    const pending = { replace: this.#replaceWith, pets, answered: this.#newReplies };
    this.#replaceWith = undefined;
    this.#created = waiting;
    this.#newReplies = [];
    return pending;
  }

  async #write(): Promise<void> {
    if (this.#mode !== 'writing' || this.#closed) return;
    const pending = this.#takePending();
    try {
      const changedParts = await this.#writeTransaction(pending);
      for (const [name, part] of changedParts) this.#writtenParts.set(name, part);
      if (!this.#marked) {
        this.#marked = true;
        this.#mark.set();
      }
    } catch (error) {
      this.#stop(
        describeFailure(error, 'writing to IndexedDB'),
        'the fake goes on in memory (what it did since is not kept); fake.control.reset() tries storage again.',
      );
    }
  }

  /** Writes `pending` and the session in one transaction; answers the policy parts it wrote. */
  async #writeTransaction({ replace, pets, answered }: PendingWrite): Promise<[string, unknown][]> {
    const { policies = {}, ...session } = (this.#readSession?.() ?? {}) as {
      policies?: Record<string, unknown>;
    };
    // A policy's part is the same object while it has not changed (pipeline/session.ts).
    const changedParts = Object.entries(policies).filter(
      ([name, part]) => this.#writtenParts.get(name) !== part,
    );
    await writeKept(this.#db, {
      replace,
      pets,
      state: { nextId: this.#nextId, session },
      parts: changedParts,
      replies: answered,
      // Only the replies still remembered are kept: the oldest leave the database with them.
      droppedReplies: () => this.#droppedReplies(answered),
    });
    return changedParts;
  }

  /** Reply ids written before that the memory of replies has let go. */
  #droppedReplies(answered: readonly [string, Reply][]): string[] {
    for (const [id] of answered) this.#writtenReplies.add(id);
    const gone = [...this.#writtenReplies].filter((id) => !this.replies.has(id));
    for (const id of gone) this.#writtenReplies.delete(id);
    return gone;
  }
}
