/**
 * A run stopped before it finished (SIGINT, SIGTERM, its parent gone): what it can still say.
 * The checks that finished keep their results; a failure among them is a verdict (exit 1), else
 * there is none (exit 2). Nothing is said of the checks that had not finished.
 */

import { toolName } from '../base/usage-error.ts';
import type { CheckResult, SuiteResult } from '../runner/results.ts';
import type { StopReason } from './stop-signals.ts';

/** What a run knew when it was stopped. */
export interface StoppedRun {
  readonly reason: StopReason;
  readonly target: string;
  readonly baseUrl: string;
  readonly seed: number;
  readonly writes: boolean;
  readonly finished: readonly CheckResult[];
  readonly requests: number;
  readonly startedAt: number;
}

/** The partial result (for `--junit`), the line to print, and the exit code. */
export function stoppedRunOutcome(run: StoppedRun, strict: boolean) {
  const failed = run.finished.filter(
    (check) => check.status === 'fail' || (strict && check.status === 'warn'),
  );
  const suite: SuiteResult = {
    target: run.target,
    baseUrl: run.baseUrl,
    seed: run.seed,
    runs: 0,
    runPrefix: '',
    writes: run.writes,
    results: run.finished,
    budget: { limit: 0, source: `stopped (${run.reason}) before the run finished` },
    requests: run.requests,
    keyRequests: 0,
    answered429: 0,
    waitedMs: 0,
    virtualTime: false,
    durationMs: Date.now() - run.startedAt,
  };
  const said =
    failed.length > 0
      ? `the server breaks the interface (${failed.map((check) => check.id).join(', ')})`
      : 'no verdict';
  return {
    suite,
    message: `${toolName}: stopped (${run.reason}) before the run finished, after ${run.finished.length} check(s) and ${run.requests} request(s): ${said}; the checks that had not finished say nothing`,
    code: failed.length > 0 ? 1 : 2,
  };
}
