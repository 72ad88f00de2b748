/**
 * The QA control surface, in-process: reset, clock, keys and plans, snapshots, forced responses.
 * control-handlers.ts serves the same functions over HTTP under the control prefix. Every method
 * checks all of its input before it changes anything, and refuses bad input with a
 * ControlInputError: a refused request leaves the fake exactly as it was.
 */

import { clockRangeProblem } from '../../base/clock/clock.ts';
import { ConfigError } from '../../base/config-error.ts';
import type { Pet } from '../../base/contract/types.ts';
import { keyFormatProblem } from '../../base/quota/key-format.ts';
import {
  assertLimits,
  type KeyEntry,
  keyIdPattern,
  type Limits,
  limitsFor,
} from '../../base/quota/plans.ts';
import { peekRateLimit } from '../../base/quota/rate-limit.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import type { FakeState, OwnFakeState } from '../../pipeline/fake-state.ts';
import { type StoreSnapshot, snapshotProblem } from '../../pipeline/persistence.ts';

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

/**
 * The control surface's own functions, over what the fake shares: the store, the clock and the
 * keys. The policies add theirs (forced answers and chaos, the client report): `fake.control` is
 * both. Bad input throws a ControlInputError and changes nothing.
 */
export interface BaseControl {
  /** Back to the start: the seed's pets (or the given ones), no usage, bans, forced rules or client report, the starting chaos, real time. */
  reset(seed?: ResetSeed): Promise<void>;
  /** The fake's current time, epoch ms. */
  now(): number;
  /** Sets the clock to an absolute time; it keeps ticking unless frozen. */
  setTime(epochMs: number): void;
  /** Moves the clock by `seconds` (may be negative). */
  advanceTime(seconds: number): void;
  /** Freezes or unfreezes the clock. */
  freezeTime(frozen: boolean): void;
  /** Back to real time, ticking. */
  realTime(): void;
  /** Every key's plan, limits and usage. */
  keys(): KeyInfo[];
  /** Changes a key's plan, or its own limits (`null` drops the override). */
  updateKey(id: string, change: { plan?: string; limits?: Limits | null }): KeyInfo;
  /** Adds a key (the secret goes in, never comes out). Its id and its secret must both be new. */
  addKey(entry: { id: string; key: string; plan: string }): KeyInfo;
  /** Copies the store. */
  snapshot(): StoreSnapshot;
  /** Replaces the store with a snapshot. */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** A summary: time, pet count, keys, and what each policy adds (forced rules, chaos). */
  describe(): Record<string, unknown>;
}

/**
 * The control surface as the control routes serve it: each function may answer later, as a
 * replica's do (its store and quota are shared: pipeline/shared-state.ts); `fake.control`, whose
 * functions answer at once, is one.
 */
export type ServedControl = {
  readonly [Name in keyof BaseControl]: BaseControl[Name] extends (
    ...args: infer Args
  ) => infer Result
    ? (...args: Args) => Result | Promise<Awaited<Result>>
    : never;
};

/** `then` applied now to a value, or later to a promise of one: what the fake holds answers at once. */
function whenRead<T, R>(value: T | Promise<T>, then: (value: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** Refuses the input when a check found a problem with it. */
function refuse(problem: string | undefined): void {
  if (problem !== undefined) throw new ControlInputError(problem);
}

/** What the pipeline's policies give the control surface. */
interface PolicyControl<Control extends object> {
  /** Their control functions, in one object. */
  readonly control: Control;
  /** Puts every policy's own state back (usage, forced answers, chaos, the client report). */
  reset(): void | Promise<void>;
  /** What they add to the summary. */
  describe(): Record<string, unknown>;
}

/**
 * Creates the control surface over a fake's state and its policies' controls; `seed` and
 * `initialKeys` are what `reset()` restores. Over the fake's own store and ledger every function
 * answers at once (BaseControl); over shared ones, later (ServedControl).
 */
export function createControl<Control extends object>(
  state: OwnFakeState,
  seed: readonly Pet[],
  initialKeys: readonly KeyEntry[],
  policies: PolicyControl<Control>,
): BaseControl & Control;
export function createControl<Control extends object>(
  state: FakeState,
  seed: readonly Pet[],
  initialKeys: readonly KeyEntry[],
  policies: PolicyControl<Control>,
): ServedControl & Control;
export function createControl<Control extends object>(
  state: FakeState,
  seed: readonly Pet[],
  initialKeys: readonly KeyEntry[],
  policies: PolicyControl<Control>,
): ServedControl & Control {
  const keyInfo = (entry: KeyEntry) =>
    whenRead(state.quota.read(entry.id), (usage): KeyInfo => {
      const limits = limitsFor(state.plans, entry);
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
    });
  const keys = () => {
    const infos = state.keys.map(keyInfo);
    return infos.some((info) => info instanceof Promise)
      ? Promise.all(infos)
      : (infos as KeyInfo[]);
  };
  const findKey = (id: string): KeyEntry => {
    const entry = state.keys.find((key) => key.id === id);
    if (entry === undefined)
      throw new ControlInputError(
        `unknown key id "${String(id).slice(0, 64)}"; known: ${state.keys.map((k) => k.id).join(', ')}`,
        'control_not_found',
      );
    return entry;
  };
  const checkPlan = (plan: unknown) => {
    if (typeof plan !== 'string' || !Object.hasOwn(state.plans, plan))
      throw new ControlInputError(
        `plan must be one of: ${Object.keys(state.plans).join(', ')}; got "${String(plan).slice(0, 64)}"`,
      );
  };
  const checkLimits = (limits: unknown): Limits => {
    try {
      assertLimits(limits, 'limits');
    } catch (error) {
      if (error instanceof ConfigError)
        throw new ControlInputError(`${error.option} ${error.problem}`);
      throw error;
    }
    return { perMinute: limits.perMinute, perDay: limits.perDay };
  };

  const control: ServedControl = {
    async reset(next = 'default') {
      if (next !== 'default' && next !== 'empty' && !Array.isArray(next))
        throw new ControlInputError('seed must be "default", "empty" or an array of pets');
      const pets = next === 'default' ? seed : next === 'empty' ? [] : next;
      refuse(snapshotProblem({ pets, nextId: 1 }));
      await state.store.restore({ pets, nextId: 1 });
      await policies.reset();
      state.clock.reset();
      state.keys.splice(0, state.keys.length, ...initialKeys.map((key) => ({ ...key })));
    },
    now: () => state.clock.now(),
    setTime(epochMs) {
      if (typeof epochMs !== 'number') throw new ControlInputError('set must be a time');
      refuse(clockRangeProblem(epochMs, 'set'));
      state.clock.set(epochMs);
    },
    advanceTime(seconds) {
      if (!Number.isFinite(seconds))
        throw new ControlInputError('advance must be a number of seconds');
      refuse(clockRangeProblem(state.clock.now() + seconds * 1000, 'advance'));
      state.clock.advance(seconds * 1000);
    },
    freezeTime(frozen) {
      if (typeof frozen !== 'boolean') throw new ControlInputError('freeze must be true or false');
      state.clock.freeze(frozen);
    },
    realTime: () => state.clock.reset(),
    keys,
    updateKey(id, change) {
      const entry = findKey(id);
      if (change.plan !== undefined) checkPlan(change.plan);
      const limits =
        change.limits === undefined || change.limits === null
          ? change.limits
          : checkLimits(change.limits);
      // Everything checked: now change.
      if (change.plan !== undefined) entry.plan = change.plan;
      if (limits !== undefined) entry.limits = limits ?? undefined;
      return keyInfo(entry);
    },
    addKey({ id, key, plan }) {
      if (typeof id !== 'string' || !keyIdPattern.test(id))
        throw new ControlInputError('id must be 1 to 64 characters of A-Z a-z 0-9 . _ -');
      const keyProblem = keyFormatProblem(key);
      if (keyProblem !== undefined) throw new ControlInputError(`key ${keyProblem}`);
      checkPlan(plan);
      if (state.keys.some((k) => k.id === id))
        throw new ControlInputError(`key id "${id}" is already in use`, 'control_conflict');
      // Two ids with one secret would charge one id's requests to the other.
      if (state.keys.some((k) => k.key === key))
        throw new ControlInputError(
          'that secret is already the key of another id; choose a new one',
          'control_conflict',
        );
      const entry: KeyEntry = { id, key, plan };
      state.keys.push(entry);
      return keyInfo(entry);
    },
    snapshot: () => state.store.snapshot(),
    async restore(snapshot) {
      refuse(snapshotProblem(snapshot));
      await state.store.restore(snapshot);
    },
    describe() {
      const now = new Date(state.clock.now()).toISOString();
      const summary = (pets: number, keys: KeyInfo[]) => ({
        now,
        clockFrozen: state.clock.frozen,
        pets,
        keys,
        ...policies.describe(),
        origins: state.config.origins,
      });
      const [pets, infos] = [state.store.count(), keys()];
      return pets instanceof Promise || infos instanceof Promise
        ? Promise.all([pets, infos]).then(([count, read]) => summary(count, read))
        : summary(pets, infos);
    },
  };
  return { ...control, ...policies.control };
}
