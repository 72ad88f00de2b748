/**
 * Where the browser's shared fake keeps its state between leading tabs, reloads and browser
 * restarts: the fake's persistence (pets, and the session beyond them) plus the replies of the
 * calls already answered, so a tab that takes over answers a call sent again with the reply it
 * was given before, instead of running it twice. The leading tab writes after every call and
 * gives the answer only once the write is done (`commit`): no acknowledged change is lost.
 *
 * indexeddb-storage.ts keeps it in IndexedDB; `memoryStorage` keeps nothing beyond the page.
 */
import type { StorePersistence } from '../../pipeline/persistence.ts';
import type { Reply } from './tab-messages.ts';

/** Where the state is kept, and why not in the browser's storage when it is not. */
export interface StorageStatus {
  readonly kept: 'indexeddb' | 'memory';
  /** What went wrong with the browser's storage, when it did. */
  readonly problem?: string;
  /**
   * Set when the fake started from its seed although this profile had kept its state before (a
   * mark kept outside IndexedDB says so): what was kept is gone, and why is not known here.
   */
  readonly lost?: string;
}

/** The shared fake's storage, as the leading tab uses it. */
export interface FakeStorage {
  /** The fake's persistence, or `undefined` when nothing is kept beyond the page. */
  readonly persistence: StorePersistence | undefined;
  /** Replies already written, by call id. */
  readonly replies: ReadonlyMap<string, Reply>;
  /**
   * Writes what changed since the last write (a call's reply is written by runCall); resolves
   * once it is written, or at once when nothing is kept. Never rejects: a failed write is reported and
   * the fake goes on in memory until it is reset (see StorageStatus).
   */
  commit(): Promise<void>;
  /**
   * Runs one call and writes it: what the call creates while `run` starts (the core creates a pet
   * synchronously once the request reaches its route) is kept out of the other calls' writes and
   * written with this call's reply, in one transaction, so a call sent again after a takeover
   * finds either both its effect and its reply or neither. Resolves with the reply once written.
   */
  runCall(id: string | undefined, run: () => Promise<Reply>): Promise<Reply>;
  /**
   * Sets aside what was kept because the fake could not read it: nothing is loaded (the fake
   * starts from its seed) or written, until the fake is reset or restored, which writes anew.
   */
  setAside(problem: string): void;
  status(): StorageStatus;
  /** Closes the storage (a tab that stops leading). */
  close(): void;
}

/** The most replies kept: a tab sends again only the calls it had not been answered. */
const maxReplies = 256;

/** Keeps a call's reply among the last `maxReplies`, dropping the oldest. */
export function rememberReply(replies: Map<string, Reply>, id: string, reply: Reply): void {
  replies.set(id, reply);
  if (replies.size > maxReplies) replies.delete(replies.keys().next().value as string);
}

/** A storage that keeps nothing past the tabs: the fake lives as long as one of them does. */
export function memoryStorage(problem?: string): FakeStorage {
  let status: StorageStatus =
    problem === undefined ? { kept: 'memory' } : { kept: 'memory', problem };
  const replies = new Map<string, Reply>();
  return {
    persistence: undefined,
    replies,
    commit: () => Promise.resolve(),
    runCall: (id, run) =>
      run().then((reply) => {
        if (id !== undefined) rememberReply(replies, id, reply);
        return reply;
      }),
    setAside: (why) => {
      status = { kept: 'memory', problem: why };
    },
    status: () => status,
    close: () => {},
  };
}
