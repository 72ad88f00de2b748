/** What a run reports: one result per check, and the run's totals. */
import type { FailureDetails } from '../checks/check.ts';

/** Verdict of one check. `warn` is an advisory check that failed (a failure with --strict). */
type CheckStatus = 'pass' | 'fail' | 'skip' | 'warn';

/**
 * Why a check has no verdict. Only `could-not-run` makes a run incomplete: the others say the
 * user did not ask for the check, the target cannot be judged on it, or nothing the run sent
 * gave the observer anything to judge (and nothing the flags asked for would have).
 */
export type SkipKind = 'not-selected' | 'not-applicable' | 'not-exercised' | 'could-not-run';

/** Every skip kind, in the order reports list them. */
export const skipKinds: readonly SkipKind[] = [
  'not-selected',
  'not-applicable',
  'not-exercised',
  'could-not-run',
];

/** The result of one check. */
export interface CheckResult {
  readonly id: string;
  /** Active checks send requests; observers judge every exchange of the run. */
  readonly kind: 'active' | 'observer';
  readonly title: string;
  readonly source: string;
  readonly status: CheckStatus;
  /** Why it was skipped, or a note on a pass. */
  readonly reason?: string;
  /** With status `skip`: the kind of skip. */
  readonly skip?: SkipKind;
  /** Skipped because the key's rate limit would not let it finish (not a verdict on the server). */
  readonly stoppedByRateLimit?: boolean;
  readonly failure?: FailureDetails;
  /** Requests this check sent (0 for observers). */
  readonly requests: number;
  readonly durationMs: number;
}

/** The result of a run. */
export interface SuiteResult {
  readonly target: string;
  readonly baseUrl: string;
  readonly seed: number;
  readonly runs: number;
  readonly runPrefix: string;
  readonly writes: boolean;
  readonly results: readonly CheckResult[];
  /** The lines saying nothing at the base URL answers as a Pet Store, when the preflight showed it. */
  readonly notAPetStore?: readonly string[];
  /** The request budget the run had, and where it came from. */
  readonly budget: { readonly limit: number; readonly source: string };
  readonly requests: number;
  /** Requests sent with the key (the others, without a valid key, draw on no window). */
  readonly keyRequests: number;
  readonly answered429: number;
  readonly waitedMs: number;
  /** The mock a self-test ran against (`--prism-mock`): its verdict is on the harness, not a server. */
  readonly selfTest?: string;
  /** Whether waits ran on the target's virtual clock (a fake in tests) rather than real time. */
  readonly virtualTime: boolean;
  readonly durationMs: number;
}

/** What a run can say of the server. */
export type Verdict = 'conforms' | 'breaks' | 'incomplete';

/**
 * `breaks` when a check failed (or warned, with `strict`); else `incomplete` when a selected,
 * applicable check could not run; else `conforms`.
 */
export function verdictOf(result: SuiteResult, strict = false): Verdict {
  if (failedIds(result, strict).length > 0) return 'breaks';
  if (result.results.some((check) => check.skip === 'could-not-run')) return 'incomplete';
  return 'conforms';
}

/** Ids of the checks that failed (and warned, with `strict`). */
export function failedIds(result: SuiteResult, strict = false): string[] {
  return result.results
    .filter((check) => check.status === 'fail' || (strict && check.status === 'warn'))
    .map((check) => check.id);
}
