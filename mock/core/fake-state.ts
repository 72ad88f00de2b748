/**
 * What one fake holds that several parts share: its settings, clock, pets, keys, plans and the
 * usage ledger (authentication, rate limit, ban and the control surface's key view all read it).
 * A policy's own state (forced answers, chaos, the client report) lives in the policy. Nothing in
 * the fake keeps module-level state, so two fakes never share anything.
 */
import type { ControllableClock } from '../clock/clock.ts';
import type { ResolvedConfig } from '../config/config.ts';
import type { KeyEntry, Limits } from '../policies/plans.ts';
import type { KeyUsage } from '../policies/rate-limit.ts';
import type { PetStore } from '../store/pet-store.ts';

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
