/**
 * One fake for every tab of a browser profile and origin, as the real service is one service for
 * all of a user's tabs. The tabs elect a leader with a Web Lock: the tab holding it runs the fake
 * (over the storage that keeps it across reloads, fake-storage.ts); the others send it their calls
 * over a BroadcastChannel and wait for its replies. Why a leading tab and not a SharedWorker or the
 * service worker itself: see docs/browser.md ("How the tabs share one fake").
 *
 * - A call is answered once its effects are written: the leading tab commits, then replies.
 * - When the leading tab goes (closed, reloaded, crashed), the lock passes to a waiting tab, which
 *   loads what was written and says it leads; every tab sends again what it had not been answered.
 *   A call the old leader had written already is answered from its written reply, never run twice.
 * - `stop()` on the leading tab finishes the calls it started and writes before handing over.
 */

import type { FakeWithCore } from '../../core/fake.ts';
import { callControl } from '../../pipeline/control-call.ts';
import type { StorePersistence } from '../../pipeline/persistence.ts';
import { SessionStateError } from '../../pipeline/session.ts';
import type { FakeStorage } from './fake-storage.ts';
import { type Call, fakeRequestOf, type Reply, type TabMessage } from './tab-messages.ts';

/** What a tab needs to join the shared fake. */
export interface SharedFakeParts {
  /** Names the lock, the channel and the storage: tabs with the same name share one fake. */
  readonly name: string;
  /** Builds the fake when this tab comes to lead, over the storage's persistence. */
  readonly createFake: (persistence: StorePersistence | undefined) => Promise<FakeWithCore>;
  /** Opens the storage when this tab comes to lead. */
  readonly openStorage: () => Promise<FakeStorage>;
  /** Where problems are told (the console). */
  readonly warn: (message: string) => void;
}

/** This tab's handle on the shared fake. */
export interface SharedFake {
  /** This tab's id: its requests come on the connection `tab:<id>`. */
  readonly tab: string;
  /**
   * Resolves once a tab runs the fake (this one or another); rejects with the error that kept
   * this tab from building it (a bad option), which any tab would meet.
   */
  readonly ready: Promise<void>;
  /**
   * Has the fake answer a call: here if this tab leads, else in the tab that does. A call given
   * a `key` (the door's, from the request's Idempotency-Key) is run once under it, from any tab:
   * the same key again gets the same reply.
   */
  call(call: Call, key?: string): Promise<Reply>;
  /** Whether this tab runs the fake now. */
  leads(): boolean;
  /** Where the leading tab keeps the fake's state (`undefined` in a tab that does not lead). */
  storage(): FakeStorage | undefined;
  /** Leaves: a leading tab finishes what it started and writes, then hands over. */
  stop(): Promise<void>;
}

const stoppedMessage = 'petstore-fake: the fake was stopped in this tab before it answered';

/** The fake of the tab that leads, with its storage. */
interface Lead {
  readonly fake: FakeWithCore;
  readonly storage: FakeStorage;
}

/** Runs one call against the leading tab's fake; never throws. */
async function run({ fake }: Lead, call: Call, connection: string): Promise<Reply> {
  if (call.kind === 'control') return callControl(fake.control, call.method, call.args);
  const answer = await fake.behaviour.answer(fakeRequestOf(call.request, connection));
  return { kind: 'answer', answer };
}

/**
 * Joins the fake shared by every tab that joins with the same name; the first tab to get the
 * lock leads. Needs Web Locks and BroadcastChannel (check `canShareFake` first).
 */
export function joinSharedFake(parts: SharedFakeParts): SharedFake {
  return new TabOfSharedFake(parts);
}

/** A call this tab sent and has not been answered, kept to send again if the leader goes. */
interface PendingCall {
  readonly call: Call;
  readonly promise: Promise<Reply>;
  readonly resolve: (reply: Reply) => void;
}

/** One tab's part in the shared fake: a caller of the leading tab, or the leading tab itself. */
class TabOfSharedFake implements SharedFake {
  readonly tab = crypto.randomUUID();
  readonly ready: Promise<void>;
  readonly #parts: SharedFakeParts;
  readonly #channel: BroadcastChannel;
  /** The tab that leads, as last announced (this one, once it leads). */
  #leader: string | undefined;
  #lead: Lead | undefined;
  #stopping = false;
  #sent = 0;
  /** This tab's calls not answered yet, kept to send again if the leader goes. */
  readonly #pending = new Map<string, PendingCall>();
  /** Calls this tab is running as leader, by call id. */
  readonly #serving = new Map<string, Promise<Reply>>();
  readonly #released = Promise.withResolvers<void>();
  /** Settles once a tab runs the fake (this one or another), or this tab failed to build it. */
  readonly #readyResolvers = Promise.withResolvers<void>();
  readonly #abandon = new AbortController();
  readonly #held: Promise<void>;

  constructor(parts: SharedFakeParts) {
    this.#parts = parts;
    this.ready = this.#readyResolvers.promise;
    this.#channel = new BroadcastChannel(parts.name);
    this.#channel.onmessage = (event: MessageEvent<TabMessage>) => this.#receive(event.data);
    this.#held = navigator.locks
      .request(`${parts.name}:leader`, { signal: this.#abandon.signal }, () =>
        this.#leadWhileHeld(),
      )
      .catch((error: unknown) => {
        if (this.#stopping && (error as { name?: string } | null)?.name === 'AbortError') return;
        // Web Locks refused here (an opaque origin, a sandboxed frame): no tab can share with this
        // one, so it runs a fake of its own rather than wait for a leader that cannot come.
        parts.warn(
          `petstore-fake: this page cannot share the fake with other tabs (${String(error)}): it runs a fake of its own.`,
        );
        if (this.#lead === undefined && !this.#stopping) return this.#leadWhileHeld();
      });
    this.#post({ type: 'hello' });
  }

  leads(): boolean {
    return this.#lead !== undefined;
  }

  storage(): FakeStorage | undefined {
    return this.#lead?.storage;
  }

  call(call: Call, key?: string): Promise<Reply> {
    const current = this.#lead;
    if (current !== undefined) return this.#runHere(current, key, call, this.tab);
    const id = key ?? `${this.tab}:${++this.#sent}`;
    const already = this.#pending.get(id);
    if (already !== undefined) return already.promise;
    const { promise, resolve } = Promise.withResolvers<Reply>();
    this.#pending.set(id, { call, promise, resolve });
    if (this.#leader !== undefined)
      this.#post({ type: 'call', to: this.#leader, from: this.tab, id, call });
    return promise;
  }

  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#abandon.abort();
    this.#released.resolve();
    await this.#held;
    this.#lead = undefined;
    this.#channel.close();
    for (const [id, { resolve }] of this.#pending) {
      this.#pending.delete(id);
      resolve({ kind: 'error', name: 'Error', message: stoppedMessage });
    }
  }

  #post(message: TabMessage): void {
    try {
      this.#channel.postMessage(message);
    } catch (error) {
      // A closed channel (the tab stopped) or a value that cannot be cloned: said, never thrown.
      this.#parts.warn(
        `petstore-fake: a message to the other tabs could not be sent (${String(error)})`,
      );
    }
  }

  #receive(message: TabMessage): void {
    switch (message.type) {
      case 'hello':
        if (this.#lead !== undefined && !this.#stopping)
          this.#post({ type: 'leader', leader: this.tab });
        return;
      case 'leader':
        if (this.#lead === undefined && message.leader !== this.#leader) {
          this.#leader = message.leader;
          this.#readyResolvers.resolve();
          this.#sendPending();
        }
        return;
      case 'call':
        // A call for a leader that left is ignored here: its tab sends it again to this one.
        if (message.to === this.tab && this.#lead !== undefined && !this.#stopping)
          this.#serve(this.#lead, message.id, message.call, message.from);
        return;
      case 'reply':
        if (message.to === this.tab) {
          const entry = this.#pending.get(message.id);
          this.#pending.delete(message.id);
          entry?.resolve(message.reply);
        }
        return;
    }
  }

  /**
   * Runs a call here (this tab leads) and writes what it changed with its reply before the reply
   * leaves. A call with an id is run once: sent again, it gets its written reply, or joins the
   * run still going.
   */
  #runHere(current: Lead, id: string | undefined, call: Call, from: string): Promise<Reply> {
    if (id === undefined) return current.storage.runCall(undefined, () => run(current, call, from));
    const written = current.storage.replies.get(id);
    if (written !== undefined) return Promise.resolve(written);
    const running = this.#serving.get(id);
    if (running !== undefined) return running;
    const done = current.storage.runCall(id, () => run(current, call, from));
    this.#serving.set(id, done);
    const forget = () => this.#serving.delete(id);
    done.then(forget, forget);
    return done;
  }

  /** Serves another tab's call; a call sent again is answered from its written reply. */
  #serve(current: Lead, id: string, call: Call, from: string): void {
    void this.#runHere(current, id, call, from).then((reply) =>
      this.#post({ type: 'reply', to: from, id, reply }),
    );
  }

  #sendPending(): void {
    const leader = this.#leader;
    if (leader === undefined) return;
    for (const [id, { call }] of this.#pending)
      this.#post({ type: 'call', to: leader, from: this.tab, id, call });
  }

  /** Builds the fake over what the storage kept; a session it cannot read is set aside, said once. */
  async #startLeading(): Promise<Lead> {
    const storage = await this.#parts.openStorage();
    try {
      return { fake: await this.#parts.createFake(storage.persistence), storage };
    } catch (error) {
      if (!(error instanceof SessionStateError)) throw error;
      storage.setAside(error.message.replace(/^petstore-fake: /, ''));
      return { fake: await this.#parts.createFake(storage.persistence), storage };
    }
  }

  /** Leads while this tab holds the lock: builds the fake, answers, and hands over once released. */
  async #leadWhileHeld(): Promise<void> {
    let current: Lead;
    try {
      current = await this.#startLeading();
      // The first write: the seed of a new fake, or the saved state as the fake read it.
      await current.storage.commit();
    } catch (error) {
      // A fake that cannot be built (a bad option) is the page's error: returning hands the lock on.
      this.#readyResolvers.reject(error);
      return;
    }
    this.#lead = current;
    this.#leader = this.tab;
    this.#readyResolvers.resolve();
    this.#post({ type: 'leader', leader: this.tab });
    // This tab's own calls that went to a leader which left: answered from the reply it wrote,
    // else run here.
    for (const [id, { call, resolve }] of this.#pending) {
      this.#pending.delete(id);
      resolve(await this.#runHere(current, id, call, this.tab));
    }
    await this.#released.promise;
    // Finish the calls already taken, then let the next tab lead.
    await Promise.all(this.#serving.values());
    current.storage.close();
  }
}

/** Whether this browser can share a fake between tabs (Web Locks and BroadcastChannel). */
export function canShareFake(): boolean {
  return typeof BroadcastChannel === 'function' && typeof navigator?.locks?.request === 'function';
}
