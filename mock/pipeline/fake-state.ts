/**
 * What one fake holds that several parts share: its settings, clock, pets, keys, plans and the
 * usage ledger (authentication, rate limit, ban and the control surface's key view all read it).
 * A policy's own state (forced answers, chaos, the client report) lives in the policy. Nothing in
 * the fake keeps module-level state, so two fakes never share anything.
 */
import type { ControllableClock } from '../base/clock/clock.ts';
import type { NewPet, Pet, PetStatus } from '../base/contract/types.ts';
import type { BanPolicy } from '../base/quota/ban.ts';
import type { KeyEntry, Limits } from '../base/quota/plans.ts';
import type { OwnLedger, QuotaDecision, QuotaLedger } from '../base/quota/quota.ts';
import type { KeyUsage } from '../base/quota/rate-limit.ts';
import type { ResolvedConfig } from './config/config.ts';
import type { ListOrder } from './config/list-order.ts';
import type { StoreSnapshot } from './persistence.ts';

/** One fake's state. */
export interface FakeState {
  readonly config: ResolvedConfig;
  readonly clock: ControllableClock;
  readonly store: PetStore | SharedStore;
  /** Known keys; mutable through the control surface. */
  readonly keys: KeyEntry[];
  /** Plans by name. */
  readonly plans: Record<string, Limits>;
  /**
   * Every key's quota, which every step and the control surface read and change: the fake's own
   * ledger over `usage`, or one shared with other processes.
   */
  readonly quota: QuotaLedger;
  /**
   * The fake's own usage records by key id, which its own ledger keeps and a session saves
   * (session.ts); empty in a fake whose quota is shared.
   */
  readonly usage: Map<string, KeyUsage>;
}

/** A fake whose state is all its own: its store and ledger answer every call at once. */
export interface OwnFakeState extends FakeState {
  readonly store: PetStore;
  readonly quota: OwnLedger;
}

/**
 * What the routes need of a store: a create and the reads, each answered at once by the fake's
 * own store (PetStore) or later by one shared with other processes, so a route keeps its
 * synchronous path whenever the value is not a promise.
 */
export interface RouteStore {
  /**
   * Adds a pet with the next id (only the contract's fields of `pet`) and returns it as stored,
   * unless `maxPets` pets are stored already (`'full'`). Saved before it is visible: when the
   * save fails it throws a StorageError and the store is as it was. Returns `undefined` when
   * every id up to `maxPetId` is used.
   */
  create(
    pet: NewPet & { status: PetStatus },
    maxPets?: number,
  ): Pet | 'full' | undefined | Promise<Pet | 'full' | undefined>;
  /** The pet with this id, if any. */
  get(id: number): Pet | undefined | Promise<Pet | undefined>;
  /**
   * Up to `limit` pets in `order` (default newest first), only those with `status` when given: a
   * frozen array, the same one until a pet is inserted among them (see pet-list.ts).
   */
  list(
    limit: number,
    status?: PetStatus,
    order?: ListOrder,
  ): readonly Pet[] | Promise<readonly Pet[]>;
}

/** The fake's own pet store, which the routes and the control surface share (store/pet-store.ts). */
export interface PetStore extends RouteStore {
  create(pet: NewPet & { status: PetStatus }, maxPets?: number): Pet | 'full' | undefined;
  get(id: number): Pet | undefined;
  list(limit: number, status?: PetStatus, order?: ListOrder): readonly Pet[];
  /** How many pets are stored. */
  count(): number;
  /** Copies every pet and the id counter. */
  snapshot(): StoreSnapshot;
  /** Replaces every pet and the id counter with a snapshot's. */
  restore(snapshot: StoreSnapshot): Promise<void>;
}

/**
 * The pets of a fake that shares them with other processes (pipeline/shared-state.ts): the
 * routes' calls, and the control surface's, each answered later.
 */
export interface SharedStore extends RouteStore {
  /** How many pets are stored. */
  count(): Promise<number>;
  /** Every pet and the id counter. */
  snapshot(): Promise<StoreSnapshot>;
  /** Replaces every pet and the id counter with a snapshot's. */
  restore(snapshot: StoreSnapshot): Promise<void>;
}

/** A route's one store call (RouteStore's method and its arguments), as a decision carries it. */
export type StoreCall =
  | {
      readonly call: 'create';
      readonly pet: NewPet & { status: PetStatus };
      readonly maxPets: number | undefined;
    }
  | { readonly call: 'get'; readonly id: number }
  | {
      readonly call: 'list';
      readonly limit: number;
      readonly status: PetStatus | undefined;
      readonly order: ListOrder | undefined;
    };

/** What a store call answered, as RouteStore's method answers it. */
export type StoreAnswer = Pet | 'full' | undefined | readonly Pet[];

/** Every key's shared quota: each call answers once the engine has. */
export interface SharedQuota extends QuotaLedger {
  decide(...args: Parameters<QuotaLedger['decide']>): Promise<QuotaDecision>;
  /**
   * Decides one request as `decide` does and, only if that admitted it, makes `call` in the same
   * step, so that a request's decision and its route's store call are one round trip and a
   * refused request never reaches the store; `stored` is the call's answer (`undefined` when the
   * request was refused).
   */
  decideWith(
    keyId: string,
    limits: Limits,
    now: number,
    policy: BanPolicy,
    call: StoreCall,
  ): Promise<{ readonly decision: QuotaDecision; readonly stored: StoreAnswer }>;
  clear(): Promise<void>;
  read(keyId: string): Promise<KeyUsage>;
  write(keyId: string, usage: KeyUsage): Promise<void>;
}
