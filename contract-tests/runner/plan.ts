/**
 * The plan of a run, as pure functions: which checks were selected and may run against this
 * target (the others are reported with the kind of skip and the reason), in which order, and how
 * many property runs fit the request budget and the key's window.
 */
import {
  type ActiveCheck,
  type Check,
  costAt,
  type Need,
  type ObserverCheck,
} from '../checks/check.ts';
import type { SharedProbe } from '../checks/check-context.ts';
import type { PlanName } from '../contract/interface-facts.ts';
import type { Target } from '../http/target.ts';
import type { SkipKind } from './results.ts';

/** What the user asked the run to do. */
export interface RunFlags {
  readonly writes: boolean;
  /** `--rate-limits`. */
  readonly rateLimitRun: boolean;
  /** `--plan`. */
  readonly plan?: PlanName;
  /** Why writes are off, for skip reasons. */
  readonly writesOffReason: string;
  /** `--only`: only these active checks (ids or `area.` prefixes); observers always run. */
  readonly only?: readonly string[] | undefined;
  /** `--skip`: checks never to run (ids or prefixes). */
  readonly skip?: readonly string[] | undefined;
}

/** A check the run will not perform, the kind of skip and why. */
interface SkippedCheck {
  readonly check: Check;
  readonly kind: Extract<SkipKind, 'not-selected' | 'not-applicable'>;
  readonly reason: string;
}

/** The checks of a run: those that run, in order, and those that do not. */
export interface Selection {
  /** Active checks that run, conformance first, by priority (registry order within one). */
  readonly active: readonly ActiveCheck[];
  readonly observers: readonly ObserverCheck[];
  readonly skipped: readonly SkippedCheck[];
}

function missingNeed(
  need: Need,
  target: Target,
  flags: RunFlags,
): Omit<SkippedCheck, 'check'> | undefined {
  const reasons = target.capabilities.missingReasons;
  const notSelected = (reason: string) => ({ kind: 'not-selected' as const, reason });
  const notApplicable = (reason: string) => ({ kind: 'not-applicable' as const, reason });
  switch (need) {
    case 'writes':
      return flags.writes ? undefined : notSelected(flags.writesOffReason);
    case 'semantics':
      return target.capabilities.semantics
        ? undefined
        : notApplicable(reasons?.semantics ?? 'the target keeps no state');
    case 'rateLimits':
      return target.capabilities.rateLimits
        ? undefined
        : notApplicable(reasons?.rateLimits ?? 'the target enforces no rate limits');
    case 'rateLimitRun':
      return flags.rateLimitRun
        ? undefined
        : notSelected("opt-in: --rate-limits spends the key's window once on purpose");
    case 'prism':
      return target.viaPrism
        ? undefined
        : notSelected('opt-in: --via-prism has Prism validate every exchange');
    case 'secondKey':
      return target.secondApiKey !== undefined
        ? undefined
        : notSelected(
            "opt-in: PETSTORE_API_KEY_2 (a second key, with --plan2 its plan) checks that two keys' windows are independent",
          );
    case 'plan':
      return flags.plan !== undefined
        ? undefined
        : notSelected(
            "opt-in: --plan free|pro|business (the key's plan) compares X-RateLimit-Limit with the plan table",
          );
  }
}

function matches(check: Check, ids: readonly string[]): boolean {
  return ids.some((item) => check.id === item || (item.endsWith('.') && check.id.startsWith(item)));
}

/**
 * `--only` plus the checks the selected ones follow (whose outcome they read), so a check
 * replays alone as it ran in the whole run; undefined when `--only` selects everything.
 */
function withFollowed(
  checks: readonly Check[],
  only: readonly string[] | undefined,
): readonly string[] | undefined {
  if (only === undefined || only.length === 0) return undefined;
  const selected = new Set(only);
  for (let grew = true; grew; ) {
    grew = false;
    for (const check of checks)
      if (check.kind === 'active' && matches(check, [...selected]))
        for (const id of check.follows ?? [])
          if (!selected.has(id)) {
            selected.add(id);
            grew = true;
          }
  }
  return [...selected];
}

/**
 * Sorts the checks into those that run and those skipped, with the kind of skip.
 * @example selectChecks(allChecks, target, { writes: true, rateLimitRun: false, writesOffReason: '' })
 */
export function selectChecks(checks: readonly Check[], target: Target, flags: RunFlags): Selection {
  const active: ActiveCheck[] = [];
  const observers: ObserverCheck[] = [];
  const skipped: SkippedCheck[] = [];
  const only = withFollowed(checks, flags.only);
  for (const check of checks) {
    if (check.kind === 'active' && only !== undefined) {
      if (!matches(check, only)) {
        skipped.push({
          check,
          kind: 'not-selected',
          reason: `not in --only ${(flags.only ?? []).join(',')}`,
        });
        continue;
      }
    }
    if (flags.skip !== undefined && matches(check, flags.skip)) {
      skipped.push({ check, kind: 'not-selected', reason: `--skip ${flags.skip.join(',')}` });
      continue;
    }
    const missing = (check.needs ?? [])
      .map((need) => missingNeed(need, target, flags))
      .find((found) => found !== undefined);
    if (missing !== undefined) skipped.push({ check, ...missing });
    else if (check.kind === 'active')
      active.push(
        !flags.writes && check.readOnlyCost !== undefined
          ? { ...check, cost: check.readOnlyCost }
          : check,
      );
    else observers.push(check);
  }
  // Array.prototype.sort is stable: equal priorities keep their registry order.
  active.sort((a, b) => a.priority - b.priority);
  return { active, observers, skipped };
}

/** Whether a check spends the key's window on purpose (its cost is known only at run time). */
export function spendsWindow(check: ActiveCheck): boolean {
  return (check.needs ?? []).includes('rateLimitRun');
}

const probeNeeds: Record<SharedProbe, readonly SharedProbe[]> = {
  fullListing: ['fullListing'],
  listedPet: ['fullListing', 'listedPet'],
};

/** Which requests a cost counts: all, or only those with the key (those its window counts). */
export type Counted = 'all' | 'withKey';

/**
 * Requests the conformance checks may send at `runs` runs, their shared probes included (every
 * probe carries the key); `withKey` leaves out the checks whose requests carry no valid key.
 */
export function conformanceCost(
  active: readonly ActiveCheck[],
  runs: number,
  counted: Counted = 'all',
): number {
  const probes = new Set<SharedProbe>();
  let total = 0;
  for (const check of active) {
    if (spendsWindow(check)) continue;
    if (counted === 'withKey' && check.cost.withoutKey === true) continue;
    total += costAt(check.cost, runs);
    for (const probe of check.shares ?? []) for (const need of probeNeeds[probe]) probes.add(need);
  }
  return total + probes.size;
}

/** How to size a run. */
export interface SizingRequest {
  /** Requests the run may still send after the preflight. */
  readonly available: number;
  readonly maxRuns: number;
  /** Fixed property runs (`--runs`). */
  readonly runs?: number | undefined;
  /**
   * What the `--rate-limits` phase needs on top of the conformance checks, given how many of
   * their requests carry the key (window left + 2), or undefined when the run does not spend it.
   */
  readonly windowNeed?: (conformance: number) => number;
}

/** The property runs of a run, or how many requests it would need at the least. */
export type Sizing =
  | {
      readonly fits: true;
      readonly runs: number;
      readonly conformance: number;
      readonly window: number;
    }
  | { readonly fits: false; readonly needed: number };

/**
 * Sizes the property runs: the most runs (up to `maxRuns`) whose conformance checks and window
 * phase fit `available`; never fewer checks (a check is never dropped to afford the window).
 * @example sizeRuns(active, { available: 59, maxRuns: 100 }) // { fits: true, runs: 1, ... }
 */
export function sizeRuns(active: readonly ActiveCheck[], request: SizingRequest): Sizing {
  const total = (runs: number) => {
    const conformance = conformanceCost(active, runs);
    const withKey = conformanceCost(active, runs, 'withKey');
    // Only requests with the key draw on its window.
    const window = request.windowNeed?.(withKey) ?? 0;
    return { conformance, window, sum: conformance + window };
  };
  const lowest = request.runs ?? 1;
  const first = total(lowest);
  if (first.sum > request.available) return { fits: false, needed: first.sum };
  if (request.runs !== undefined)
    return { fits: true, runs: request.runs, conformance: first.conformance, window: first.window };
  let runs = 1;
  let best = first;
  // Costs grow with runs: find the largest that fits by doubling, then halving.
  let step = 1;
  while (runs + step <= request.maxRuns && total(runs + step).sum <= request.available) {
    runs += step;
    step *= 2;
  }
  for (; step >= 1; step = Math.floor(step / 2)) {
    if (runs + step <= request.maxRuns && total(runs + step).sum <= request.available) runs += step;
  }
  best = total(runs);
  return { fits: true, runs, conformance: best.conformance, window: best.window };
}
