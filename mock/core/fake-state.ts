/**
 * Everything one fake instance holds. Routes, policies and the control surface all receive it;
 * nothing in the fake keeps module-level state, so two fakes never share anything.
 */

import type { ControllableClock } from '../clock/clock.ts';
import type { ResolvedConfig } from '../config/config.ts';
import type { KeyEntry, Limits } from '../policies/plans.ts';
import type { KeyUsage } from '../policies/rate-limit.ts';
import type { ForcedResponses } from '../qa/forced-responses.ts';
import type { QaState } from '../qa/qa-state.ts';
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
  readonly forced: ForcedResponses;
  /** Chaos and the client compliance report. */
  readonly qa: QaState;
}
