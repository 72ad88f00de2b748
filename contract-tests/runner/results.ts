/** What a run reports: one result per check, and the run's totals. */
import type { FailureDetails } from '../checks/check.ts';

/** Verdict of one check. `warn` is an advisory check that failed (a failure with --strict). */
export type CheckStatus = 'pass' | 'fail' | 'skip' | 'warn';

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
  readonly requests: number;
  readonly answered429: number;
  readonly waitedMs: number;
  /** Whether waits ran on the target's virtual clock (a fake in tests) rather than real time. */
  readonly virtualTime: boolean;
  readonly durationMs: number;
}

/** Whether a run found the server conforming (`--strict` counts warnings as failures). */
export function conforms(result: SuiteResult, strict = false): boolean {
  return result.results.every(
    (check) => check.status !== 'fail' && (!strict || check.status !== 'warn'),
  );
}

/** Ids of the checks that failed (and warned, with `strict`). */
export function failedIds(result: SuiteResult, strict = false): string[] {
  return result.results
    .filter((check) => check.status === 'fail' || (strict && check.status === 'warn'))
    .map((check) => check.id);
}
