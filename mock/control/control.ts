/**
 * The QA control surface, in-process: reset, clock, keys and plans, snapshots, forced responses.
 * control-handlers.ts serves the same functions over HTTP under the control prefix.
 */
import type { Pet } from '../contract/types.ts';
import type { FakeState } from '../core/fake-state.ts';
import { assertLimits, type KeyEntry, type Limits } from '../policies/plans.ts';
import { emptyUsage, peekRateLimit } from '../policies/rate-limit.ts';
import type { StoreSnapshot } from '../store/pet-store.ts';
import type { ForcedResponses } from './forced-responses.ts';

/** What the control surface says about a key: never the key itself. */
export interface KeyInfo {
  readonly id: string;
  readonly plan: string;
  readonly limits: Limits;
  readonly overridden: boolean;
  readonly usage: { readonly minute: number; readonly day: number; readonly violations: number };
  readonly bannedUntil: string | null;
}

/** Where a reset takes the store: the fake's seed, nothing, or the given pets. */
export type ResetSeed = 'default' | 'empty' | readonly Pet[];

/** The in-process control surface of one fake. */
export interface FakeControl {
  /** Back to the start: the seed's pets (or the given ones), no usage, bans or forced rules, real time. */
  reset(seed?: ResetSeed): Promise<void>;
  /** The fake's current time, epoch ms. */
  now(): number;
  /** Sets the clock to an absolute time; it keeps ticking unless frozen. */
  setTime(epochMs: number): void;
  /** Moves the clock by `seconds` (may be negative). */
  advanceTime(seconds: number): void;
  /** Freezes or unfreezes the clock. */
  freezeTime(frozen: boolean): void;
  /** Every key's plan, limits and usage. */
  keys(): KeyInfo[];
  /** Changes a key's plan, or its own limits (`null` drops the override). */
  updateKey(id: string, change: { plan?: string; limits?: Limits | null }): KeyInfo;
  /** Adds a key (the secret goes in, never comes out). */
  addKey(entry: { id: string; key: string; plan: string }): KeyInfo;
  /** Copies the store. */
  snapshot(): StoreSnapshot;
  /** Replaces the store with a snapshot. */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** Forces the next `count` responses of an operation to an error status. */
  force: ForcedResponses['force'];
  /** Drops every forced rule. */
  clearForced(): void;
  /** A summary: time, pet count, keys, forced rules. */
  describe(): Record<string, unknown>;
}

/** Creates the control surface over a fake's state; `seed` is what `reset()` restores. */
export function createControl(
  state: FakeState,
  seed: readonly Pet[],
  initialKeys: readonly KeyEntry[],
): FakeControl {
  const keyInfo = (entry: KeyEntry): KeyInfo => {
    const limits = entry.limits ?? state.plans[entry.plan] ?? { perMinute: 0, perDay: 0 };
    const usage = state.usage.get(entry.id) ?? emptyUsage();
    peekRateLimit(usage, limits, state.clock.now()); // rolls expired windows so counts are current
    return {
      id: entry.id,
      plan: entry.plan,
      limits,
      overridden: entry.limits !== undefined,
      usage: { minute: usage.minute.count, day: usage.day.count, violations: usage.violations },
      bannedUntil:
        usage.bannedUntil > state.clock.now() ? new Date(usage.bannedUntil).toISOString() : null,
    };
  };
  const findKey = (id: string): KeyEntry => {
    const entry = state.keys.find((key) => key.id === id);
    if (entry === undefined)
      throw new RangeError(
        `unknown key id "${id}"; known: ${state.keys.map((k) => k.id).join(', ')}`,
      );
    return entry;
  };
  const checkPlan = (plan: string) => {
    if (!Object.hasOwn(state.plans, plan))
      throw new RangeError(
        `plan must be one of: ${Object.keys(state.plans).join(', ')}; got "${plan}"`,
      );
  };

  const control: FakeControl = {
    async reset(next = 'default') {
      const pets = next === 'default' ? seed : next === 'empty' ? [] : next;
      await state.store.restore({ pets, nextId: 1 });
      state.usage.clear();
      state.forced.clear();
      state.clock.reset();
      state.keys.splice(0, state.keys.length, ...initialKeys.map((key) => ({ ...key })));
    },
    now: () => state.clock.now(),
    setTime: (epochMs) => state.clock.set(epochMs),
    advanceTime: (seconds) => state.clock.advance(seconds * 1000),
    freezeTime: (frozen) => state.clock.freeze(frozen),
    keys: () => state.keys.map(keyInfo),
    updateKey(id, change) {
      const entry = findKey(id);
      if (change.plan !== undefined) {
        checkPlan(change.plan);
        entry.plan = change.plan;
      }
      if (change.limits === null) entry.limits = undefined;
      else if (change.limits !== undefined) {
        assertLimits(change.limits, 'limits');
        entry.limits = { perMinute: change.limits.perMinute, perDay: change.limits.perDay };
      }
      return keyInfo(entry);
    },
    addKey({ id, key, plan }) {
      if (typeof id !== 'string' || id === '' || state.keys.some((k) => k.id === id))
        throw new RangeError(`key id must be new and non-empty, got "${String(id)}"`);
      if (typeof key !== 'string' || !/^[\x21-\x7e]{8,256}$/.test(key))
        throw new RangeError('key must be 8 to 256 printable ASCII characters without spaces');
      checkPlan(plan);
      const entry: KeyEntry = { id, key, plan };
      state.keys.push(entry);
      return keyInfo(entry);
    },
    snapshot: () => state.store.snapshot(),
    restore: (snapshot) => state.store.restore(snapshot),
    force: (operationId, status, count, retryAfterSeconds) =>
      state.forced.force(operationId, status, count, retryAfterSeconds),
    clearForced: () => state.forced.clear(),
    describe: () => ({
      now: new Date(state.clock.now()).toISOString(),
      clockFrozen: state.clock.frozen,
      pets: state.store.count(),
      keys: control.keys(),
      forced: state.forced.list(),
      origins: state.config.origins,
    }),
  };
  return control;
}
