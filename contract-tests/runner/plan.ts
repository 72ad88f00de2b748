/**
 * Which checks a run can afford and may perform: checks whose needs the target or the flags do
 * not meet are skipped with the reason, and property runs are sized so the whole run fits the
 * request budget (60 by default: one minute of a Free key).
 */
import type { ActiveCheck, Check, Need, ObserverCheck } from '../checks/check.ts';
import type { Target } from '../targets/target.ts';

/** What the run may do. */
export interface PlanFlags {
  readonly writes: boolean;
  readonly rateLimitRun: boolean;
  /** Whether the key's plan is known (`--plan`). */
  readonly plan: boolean;
  /** Why writes are off, for skip reasons. */
  readonly writesOffReason: string;
  /** Only these active checks (ids or `area.` prefixes); observers always run. */
  readonly only?: readonly string[];
  /** Checks never to run (ids or prefixes), reported as skipped. */
  readonly skip?: readonly string[];
}

/** A check the run will perform, or skip with a reason. */
export type PlannedCheck =
  | { readonly check: Check; readonly skipReason: string }
  | { readonly check: Check; readonly skipReason?: undefined };

/** The plan of a run. */
export interface Plan {
  readonly checks: readonly PlannedCheck[];
  /** Property runs per property check. */
  readonly runs: number;
  /** Requests the planned active checks may send at most (without shrinking). */
  readonly plannedRequests: number;
}

function missingNeed(need: Need, target: Target, flags: PlanFlags): string | undefined {
  const reasons = target.capabilities.missingReasons;
  switch (need) {
    case 'writes':
      return flags.writes ? undefined : flags.writesOffReason;
    case 'semantics':
      return target.capabilities.semantics
        ? undefined
        : (reasons?.semantics ?? 'the target keeps no state');
    case 'rateLimits':
      return target.capabilities.rateLimits
        ? undefined
        : (reasons?.rateLimits ?? 'the target enforces no rate limits');
    case 'rateLimitRun':
      return flags.rateLimitRun
        ? undefined
        : "pass --rate-limits to spend the key's window once on purpose";
    case 'prism':
      return target.viaPrism ? undefined : 'pass --via-prism to have Prism validate every exchange';
    case 'plan':
      return flags.plan
        ? undefined
        : "pass --plan free|pro|business (the key's plan) to compare X-RateLimit-Limit with the plan table";
  }
}

function matches(check: Check, ids: readonly string[]): boolean {
  return ids.some((item) => check.id === item || (item.endsWith('.') && check.id.startsWith(item)));
}

function selected(check: ActiveCheck, only: readonly string[] | undefined): boolean {
  return only === undefined || only.length === 0 || matches(check, only);
}

/** Whether a check is an observer. */
export function isObserver(check: Check): check is ObserverCheck {
  return check.kind === 'observer';
}

/**
 * Plans a run over `checks` with `budget` requests (`runs` fixes the property runs instead).
 * @example planRun(allChecks, target, flags, { budget: 60, maxRuns: 100 })
 */
export function planRun(
  checks: readonly Check[],
  target: Target,
  flags: PlanFlags,
  sizing: { readonly budget: number; readonly maxRuns: number; readonly runs?: number },
): Plan {
  const planned: PlannedCheck[] = [];
  const active: ActiveCheck[] = [];
  for (const check of checks) {
    if (check.kind === 'active' && !selected(check, flags.only)) continue;
    if (flags.skip !== undefined && matches(check, flags.skip)) {
      planned.push({ check, skipReason: 'skipped on request (--skip)' });
      continue;
    }
    const reason = (check.needs ?? [])
      .map((need) => missingNeed(need, target, flags))
      .find((text) => text !== undefined);
    if (reason !== undefined) planned.push({ check, skipReason: reason });
    else {
      planned.push({ check });
      if (check.kind === 'active') active.push(check);
    }
  }
  const total = (list: ActiveCheck[], runs: number) =>
    list.reduce((sum, check) => sum + check.cost.fixed + check.cost.perRun * runs, 0);
  const fitting = [...active];
  const perRun = () => fitting.reduce((sum, check) => sum + check.cost.perRun, 0);
  const fixed = () => total(fitting, 0);
  let runs =
    sizing.runs ??
    Math.max(
      1,
      Math.min(sizing.maxRuns, Math.floor((sizing.budget - fixed()) / Math.max(1, perRun()))),
    );
  // Drop the least important checks (the end of the list) until one run of each fits.
  const droppable = () =>
    fitting.findLastIndex((check) => !(check.needs ?? []).includes('rateLimitRun'));
  while (droppable() >= 0 && total(fitting, sizing.runs === undefined ? 1 : runs) > sizing.budget) {
    const [dropped] = fitting.splice(droppable(), 1) as [ActiveCheck];
    const index = planned.findIndex((entry) => entry.check === dropped);
    planned[index] = {
      check: dropped,
      skipReason: `not enough request budget (--budget ${sizing.budget}) for it; raise --budget`,
    };
    if (sizing.runs === undefined)
      runs = Math.max(
        1,
        Math.min(sizing.maxRuns, Math.floor((sizing.budget - fixed()) / Math.max(1, perRun()))),
      );
  }
  return { checks: planned, runs, plannedRequests: total(fitting, runs) };
}
