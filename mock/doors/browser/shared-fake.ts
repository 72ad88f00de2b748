/**
 * One fake for every tab of a browser profile and origin, as the real service is one service for
 * all of a user's tabs. The tab holding a Web Lock runs the fake over indexeddb-storage.ts; the
 * others send it their calls over a BroadcastChannel (why not a SharedWorker: docs/browser.md,
 * "How the tabs share one fake"). A call is answered once its effects are written. When the
 * leading tab goes, the lock passes to a waiting tab, which loads what was written; every tab
 * sends again what it had not been answered, and a call already written is answered from its
 * written reply, never run twice. `stop()` finishes the calls it started before handing over.
 */

import { type CreateFakeOptions, createFake, type FakeWithCore } from '../../core/fake.ts';
import { callControl } from '../../pipeline/control-call.ts';
import { SessionStateError } from '../../pipeline/session.ts';
import { type IndexedDbStorage, openIndexedDbStorage } from './indexeddb-storage.ts';
import { type Call, fakeRequestOf, type Reply, type TabMessage } from './tab-messages.ts';

const stoppedMessage = 'petstore-fake: the fake was stopped in this tab before it answered';

/** The fake of the tab that leads, with its storage. */
interface Lead {
  readonly fake: FakeWithCore;
  readonly storage: IndexedDbStorage;
}

/** A call this tab sent and has not been answered, kept to send again if the leader goes. */
interface PendingCall extends PromiseWithResolvers<Reply> {
  readonly call: Call;
}

/**
 * One tab's part in the fake shared by every tab that joins with the same `name` (which names the
 * lock, the channel and the storage): a caller of the leading tab, or the leading tab itself,
 * which builds the fake with `options` over the storage; the first tab to get the lock leads.
 * Needs Web Locks and BroadcastChannel (check `canShareFake` first).
 */
export class SharedFake {
  /** This tab's id: its requests come on the connection `tab:<id>`. */
  readonly #tab = crypto.randomUUID();
  readonly #readyResolvers = Promise.withResolvers<void>();
  /**
   * Resolves once a tab runs the fake (this one or another); rejects with the error that kept
   * this tab from building it (a bad option), which any tab would meet.
   */
  readonly ready = this.#readyResolvers.promise;
  readonly #name: string;
  readonly #options: CreateFakeOptions;
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
  readonly #abandon = new AbortController();
  readonly #held: Promise<void>;

  constructor(name: string, options: CreateFakeOptions) {
    this.#name = name;
    this.#options = options;
    this.#channel = new BroadcastChannel(name);
    this.#channel.onmessage = (event: MessageEvent<TabMessage>) => this.#receive(event.data);
    this.#held = navigator.locks
      .request(`${name}:leader`, { signal: this.#abandon.signal }, () => this.#leadWhileHeld())
      .catch((error: unknown) => {
        if (this.#stopping && (error as { name?: string } | null)?.name === 'AbortError') return;
        // Web Locks refused here (an opaque origin, a sandboxed frame): no tab can share with this
        // one, so it runs a fake of its own rather than wait for a leader that cannot come.
        console.warn(
          `petstore-fake: this page cannot share the fake with other tabs (${String(error)}): it runs a fake of its own.`,
        );
        if (this.#lead === undefined && !this.#stopping) return this.#leadWhileHeld();
      });
    this.#post({ type: 'hello' });
  }

  /** Whether this tab runs the fake now. */
  leads(): boolean {
    return this.#lead !== undefined;
  }

  /** Where the leading tab keeps the fake's state (`undefined` in a tab that does not lead). */
  storage(): IndexedDbStorage | undefined {
    return this.#lead?.storage;
  }

  /**
   * Has the fake answer a call: here if this tab leads, else in the tab that does. A call given
   * a `key` (the door's, from the request's Idempotency-Key) is run once under it, from any tab:
   * the same key again gets the same reply.
   */
  call(call: Call, key?: string): Promise<Reply> {
    const current = this.#lead;
    if (current !== undefined) return this.#runHere(current, key, call, this.#tab);
    const id = key ?? `${this.#tab}:${++this.#sent}`;
    const already = this.#pending.get(id);
    if (already !== undefined) return already.promise;
    const pending = { call, ...Promise.withResolvers<Reply>() };
    this.#pending.set(id, pending);
    if (this.#leader !== undefined)
      this.#post({ type: 'call', to: this.#leader, from: this.#tab, id, call });
    return pending.promise;
  }

  /** Leaves: a leading tab finishes what it started and writes, then hands over. */
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
      console.warn(
        `petstore-fake: a message to the other tabs could not be sent (${String(error)})`,
      );
    }
  }

  #receive(message: TabMessage): void {
    switch (message.type) {
      case 'hello':
        if (this.#lead !== undefined && !this.#stopping)
          this.#post({ type: 'leader', leader: this.#tab });
        return;
      case 'leader':
        if (this.#lead === undefined && message.leader !== this.#leader) {
          this.#leader = message.leader;
          this.#readyResolvers.resolve();
          for (const [id, { call }] of this.#pending)
            this.#post({ type: 'call', to: message.leader, from: this.#tab, id, call });
        }
        return;
      case 'call':
        // A call for a leader that left is ignored here: its tab sends it again to this one.
        if (message.to === this.#tab && this.#lead !== undefined && !this.#stopping) {
          const { id, from } = message;
          void this.#runHere(this.#lead, id, message.call, from).then((reply) =>
            this.#post({ type: 'reply', to: from, id, reply }),
          );
        }
        return;
      case 'reply':
        if (message.to === this.#tab) {
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
    // Never throws: a control function's error is its reply, a request's failure its answer.
    const run = async (): Promise<Reply> => {
      if (call.kind === 'control') return callControl(current.fake.control, call.method, call.args);
      const answer = await current.fake.behaviour.answer(fakeRequestOf(call.request, from));
      return { kind: 'answer', answer };
    };
    if (id === undefined) return current.storage.runCall(undefined, run);
    const written = current.storage.replies.get(id);
    if (written !== undefined) return Promise.resolve(written);
    const running = this.#serving.get(id);
    if (running !== undefined) return running;
    const done = current.storage.runCall(id, run);
    this.#serving.set(id, done);
    const forget = () => this.#serving.delete(id);
    done.then(forget, forget);
    return done;
  }

  /** Builds the fake over what the storage kept; a session it cannot read is set aside, said once. */
  async #startLeading(): Promise<Lead> {
    const storage = await openIndexedDbStorage(this.#name, (message) => console.warn(message));
    const build = async () => {
      const { persistence } = storage;
      const options = persistence === undefined ? this.#options : { ...this.#options, persistence };
      return { fake: await createFake(options), storage };
    };
    try {
      return await build();
    } catch (error) {
      if (!(error instanceof SessionStateError)) throw error;
      storage.setAside(error.message.replace(/^petstore-fake: /, ''));
      return await build();
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
    this.#leader = this.#tab;
    this.#readyResolvers.resolve();
    this.#post({ type: 'leader', leader: this.#tab });
    // This tab's own calls that went to a leader which left: answered from the reply it wrote,
    // else run here.
    for (const [id, { call, resolve }] of this.#pending) {
      this.#pending.delete(id);
      resolve(await this.#runHere(current, id, call, this.#tab));
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
