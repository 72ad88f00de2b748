/**
 * A fake's session: what it holds beyond its pets (the clock, the keys as the control surface left
 * them, every key's windows and ban, and each policy's own state), as one plain value that leaves
 * the fake and comes back. The pets travel through the store's own persistence, so a door that
 * keeps state writes a created pet without rewriting the session, and the session without
 * rewriting every pet. Browser storage and a tab taking over from another use it.
 */
import type { ClockState } from '../base/clock/clock.ts';
import { ConfigError } from '../base/config-error.ts';
import { isJsonObject } from '../base/contract/lossless-json.ts';
import { assertKeyEntries, assertLimits, type KeyEntry } from '../base/quota/plans.ts';
import { type KeyUsage, usageProblem } from '../base/quota/rate-limit.ts';
import type { FakeState } from './fake-state.ts';
import type { PolicyState } from './pipeline.ts';

/** Bumped when the shape changes: a session of another format is not loaded. */
const sessionFormat = 1;

/** What a fake holds beyond its pets, as plain data (JSON and structured-clone safe). */
export interface SessionState {
  readonly format: typeof sessionFormat;
  readonly clock: ClockState;
  readonly keys: readonly KeyEntry[];
  /** Usage (windows, refusals, ban) by key id. */
  readonly usage: Readonly<Record<string, KeyUsage>>;
  /** Each policy's own state, under its name. */
  readonly policies: Readonly<Record<string, unknown>>;
}

/**
 * A saved session the fake cannot take back: says which part and why, and nothing was changed. A
 * policy's `load` throws it with the problem alone; the session names the part.
 */
export class SessionStateError extends Error {
  override readonly name = 'SessionStateError';
}

/**
 * The last value each policy that counts its changes saved, and at which count: saved again as
 * the same object while the count stands, so a door that keeps the session can tell, by identity,
 * which parts it need not write again. One per fake (createSavedParts), never module-wide.
 */
export type SavedParts = WeakMap<
  PolicyState,
  { readonly changes: number; readonly value: unknown }
>;

/** A fake's memory of the parts its policies saved last. */
export function createSavedParts(): SavedParts {
  return new WeakMap();
}

function savedPart(lastSaved: SavedParts, policy: PolicyState): unknown {
  if (policy.changes === undefined) return policy.save();
  const changes = policy.changes();
  const last = lastSaved.get(policy);
  if (last !== undefined && last.changes === changes) return last.value;
  const value = policy.save();
  lastSaved.set(policy, { changes, value });
  return value;
}

/** A key's usage that shares no window object with the one it was copied from. */
function copyOfUsage(usage: KeyUsage): KeyUsage {
  return { ...usage, minute: { ...usage.minute }, day: { ...usage.day } };
}

/** Reads the session of a fake's state and its policies now. */
export function saveSession(
  state: FakeState,
  policies: readonly PolicyState[],
  lastSaved: SavedParts = createSavedParts(),
): SessionState {
  return {
    format: sessionFormat,
    clock: state.clock.save(),
    keys: state.keys.map((key) => ({
      ...key,
      ...(key.limits ? { limits: { ...key.limits } } : {}),
    })),
    usage: Object.fromEntries([...state.usage].map(([id, usage]) => [id, copyOfUsage(usage)])),
    policies: Object.fromEntries(
      policies.map((policy) => [policy.name, savedPart(lastSaved, policy)]),
    ),
  };
}

function fail(problem: string): never {
  throw new SessionStateError(`petstore-fake: the saved session ${problem}`);
}

function checkClock(clock: unknown): ClockState {
  if (isJsonObject(clock)) {
    const keys = Object.keys(clock);
    const [only] = keys;
    const value = only === undefined ? undefined : clock[only];
    if (keys.length === 1 && (only === 'frozenAt' || only === 'offsetMs') && Number.isFinite(value))
      return only === 'frozenAt' ? { frozenAt: value as number } : { offsetMs: value as number };
  }
  return fail('has no clock {"frozenAt": ms} or {"offsetMs": ms}');
}

function checkKeys(keys: unknown, plans: FakeState['plans']): KeyEntry[] {
  if (!Array.isArray(keys)) return fail('has no list of keys');
  try {
    // The keys file's own check (ids and secrets each used once, a known plan), then the limits
    // the control surface may have set on a key.
    assertKeyEntries(keys, plans, 'keys');
    for (const [index, { limits }] of (keys as KeyEntry[]).entries())
      if (limits !== undefined) assertLimits(limits, `keys[${index}].limits`);
  } catch (error) {
    if (error instanceof ConfigError) fail(`${error.option} ${error.problem}`);
    throw error;
  }
  return (keys as KeyEntry[]).map(({ id, key, plan, limits }) => ({
    id,
    key,
    plan,
    ...(limits === undefined ? {} : { limits }),
  }));
}

/**
 * Puts a saved session back into a fake's state and policies. Everything is checked before
 * anything changes; a session that cannot be read throws a SessionStateError.
 */
export function loadSession(
  state: FakeState,
  policies: readonly PolicyState[],
  saved: unknown,
): void {
  if (!isJsonObject(saved) || saved.format !== sessionFormat)
    fail(`is not of format ${sessionFormat}`);
  const clock = checkClock(saved.clock);
  const keys = checkKeys(saved.keys, state.plans);
  if (!isJsonObject(saved.usage)) fail('has no usage by key id');
  const usage = Object.entries(saved.usage).map(([id, record]): [string, KeyUsage] => {
    const problem = usageProblem(record);
    if (problem !== undefined) fail(`usage of "${id.slice(0, 64)}" ${problem}`);
    return [id, record as KeyUsage];
  });
  const savedPolicies = isJsonObject(saved.policies) ? saved.policies : fail('has no policies');
  // Every part is read before any is put back, so a session refused anywhere changes nothing.
  const applies = policies.map((policy) => {
    try {
      return policy.load(savedPolicies[policy.name]);
    } catch (error) {
      if (error instanceof SessionStateError) fail(`part "${policy.name}" ${error.message}`);
      throw error;
    }
  });
  for (const apply of applies) apply();
  state.clock.load(clock);
  state.keys.splice(0, state.keys.length, ...keys);
  state.usage.clear();
  for (const [id, record] of usage) state.usage.set(id, copyOfUsage(record));
}
