/**
 * What one fake holds that several parts share: its settings, clock, pets, keys, plans and the
 * usage ledger (authentication, rate limit, ban and the control surface's key view all read it).
 * A policy's own state (forced answers, chaos, the client report) lives in the policy. Nothing in
 * the fake keeps module-level state, so two fakes never share anything.
 */
import type { ControllableClock } from '../base/clock/clock.ts';
import type { NewPet, Pet, PetStatus } from '../base/contract/types.ts';
import type { KeyEntry, Limits } from '../base/quota/plans.ts';
import type { KeyUsage } from '../base/quota/rate-limit.ts';
import type { ResolvedConfig } from './config/config.ts';
import type { ListOrder } from './config/list-order.ts';
import type { StoreSnapshot } from './persistence.ts';

/** One fake's state. */
export interface FakeState {
  readonly config: ResolvedConfig;
  readonly clock: ControllableClock;
  readonly store: PetStore;
  /** Known keys; mutable through the control surface. */
  readonly keys: KeyEntry[];
  /** Plans by name. */
  readonly plans: Record<string, Limits>;
  /** Rate-limit usage by key id. */
  readonly usage: Map<string, KeyUsage>;
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
