/**
 * The state a fake shares with other processes, in place of its own (replicas behind a load
 * balancer, mock/replicas/): the pets, every key's quota and the time source live in an engine
 * all of them reach, and the clock's setting and the keys, which change seldom, in a copy each
 * process brings current before it answers. The fake's own steps read it through the same
 * interfaces as its in-memory state (RouteStore, QuotaLedger), whose calls then answer later.
 * Defined here, without the engine, so that no layer below the replicas' knows it.
 */
import type { ControllableClock } from '../base/clock/clock.ts';
import type { KeyEntry } from '../base/quota/plans.ts';
import type { Exchange, ExchangeReader } from './exchange.ts';
import type { SharedQuota, SharedStore } from './fake-state.ts';
import type { PolicyState } from './pipeline.ts';

/**
 * What a process keeps of the shared state: the clock the fake reads, its keys, changed in
 * place, and the states of the policies the processes share (forced answers, stubs, chaos),
 * which the fake adds once its pipeline is made.
 */
export interface LocalCopy {
  readonly clock: ControllableClock;
  readonly keys: KeyEntry[];
  readonly policies: PolicyState[];
}

/**
 * A mark among the shared exchanges: a reset (every process's recorders forget what came before
 * it), or a clear of one recorder by its control route (`DELETE requests`), which every process's
 * copy of that recorder makes at the same point.
 */
export type ExchangeMark = 'reset' | { readonly cleared: string };

/**
 * Every process's exchanges, in one numbered record: each process sends its own, and its
 * recorders (the journal, coverage, the Pact file, the client report) read everyone's from it,
 * so the control surface of any process answers for all of them.
 */
export interface SharedExchanges {
  /** Sends an exchange this process answered (in order, without waiting for it). */
  send(exchange: Exchange): void;
  /** Places a mark after every exchange sent so far; resolves once every process can read it. */
  mark(mark: ExchangeMark): Promise<void>;
  /**
   * Hands `read` every exchange sent since the last catch-up, in order, numbered across the
   * processes (`arrival`) and with the process that answered named in its `connection`;
   * `marked` for each mark on the way.
   */
  catchUp(read: ExchangeReader, marked: (mark: ExchangeMark) => void): Promise<void>;
  /** The number of the last exchange or mark caught up with (0 for none). */
  last(): number;
}

/** One process's way into the state it shares. */
export interface SharedState {
  readonly store: SharedStore;
  readonly quota: SharedQuota;
  readonly exchanges: SharedExchanges;
  /**
   * A ticket for a request about to be answered: `confirmedSince` tells whether a call made after
   * it found the local copy current, which makes the answer one of the shared version.
   */
  begin(): number;
  /** Whether a call sent since `ticket` was taken found the local copy current. */
  confirmedSince(ticket: number): boolean;
  /** Brings the local copy to the shared version, resolving whether it moved. */
  refresh(): Promise<boolean>;
  /**
   * Runs `change` (a control call, or a request's spending of a forced answer, a stub or a chaos
   * draw) on a current local copy and shares what it left of the clock, the keys and the shared
   * policies' states; resolves with what `change` returned once every process can read it.
   */
  change<T>(change: () => Promise<T>): Promise<T>;
  /**
   * Runs a control reset (`reset`), having started the shared state again first when it was lost
   * (the engine came back empty), so that it starts from the seed; the other processes follow it
   * once the reset is made. No other request ever starts it again.
   */
  restart<T>(reset: () => Promise<T>): Promise<T>;
}

/**
 * Made by a fake over its local copy (the clock it reads and the keys it holds, which createFake
 * makes from its options): the shared state that copy follows.
 */
export type SharedStateOver = (local: LocalCopy) => SharedState;

/**
 * The shared state could not be read or written: `unavailable` (the engine is unreachable),
 * `lost` (the engine lost the state, or it was started anew: the fake answers 503
 * `store_unavailable` until a reset, unless another process's reset started it again, which the
 * copy then follows) or `stale` (the local copy is older than the shared version: nothing was
 * written, and the request runs again on a fresh copy).
 */
export class SharedStateError extends Error {
  override readonly name: string = 'SharedStateError';
  readonly kind: 'unavailable' | 'lost' | 'stale';

  constructor(kind: 'unavailable' | 'lost' | 'stale', message: string, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
  }
}
