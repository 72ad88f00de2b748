/**
 * The active checks of a run, one after another in plan order: each gets its context and an
 * allowance (its declared cost, plus what the later checks do not need, for shrinking), and its
 * outcome becomes a result: pass, fail, or could not run (with the reason).
 */
import {
  type ActiveCheck,
  CheckFailure,
  CouldNotRun,
  costAt,
  NotExercised,
} from '../checks/check.ts';
import type { CheckContext, RateLimitRunState } from '../checks/check-context.ts';
import { AllowanceSpentError, isStopSignal } from '../checks/property.ts';
import type { SuiteChoices } from '../checks/suite-choices.ts';
import type { ContractClient } from '../http/client.ts';
import { RateLimitedError } from '../http/pacer.ts';
import type { Target } from '../http/target.ts';
import { spendsWindow } from './plan.ts';
import type { CheckResult } from './results.ts';
import { shrinkHeadroom } from './run-budget.ts';
import { checkSeed } from './seeds.ts';
import type { SharedProbes } from './shared-probes.ts';

/** What every active check of one run shares. */
export interface ActiveRun {
  readonly target: Target;
  readonly client: ContractClient;
  readonly probes: SharedProbes;
  readonly seed: number;
  readonly runs: number;
  readonly runPrefix: string;
  readonly writes: boolean;
  /** What the `--rate-limits` checks hand each other. */
  readonly rateLimitRun: RateLimitRunState;
  /** What the run was asked (its flags), for the checks. */
  readonly choices: SuiteChoices;
  /** Requests the checks not run yet may still need (their planned cost). */
  plannedLeft: number;
}

/** Runs one active check and reports it. */
export async function runActiveCheck(check: ActiveCheck, run: ActiveRun): Promise<CheckResult> {
  const started = performance.now();
  const cost = spendsWindow(check) ? run.client.budget.left : costAt(check.cost, run.runs);
  run.plannedLeft = Math.max(0, run.plannedLeft - cost);
  const spare = Math.max(0, run.client.budget.left - run.plannedLeft - cost);
  const allowance = cost + Math.min(shrinkHeadroom, spare);
  let sent = 0;
  let note: string | undefined;
  const context: CheckContext = {
    target: run.target,
    client: run.client,
    runs: run.runs,
    seed: checkSeed(run.seed, check.id),
    runPrefix: run.runPrefix,
    writes: run.writes,
    async send(spec, options) {
      if (sent >= allowance) throw new AllowanceSpentError();
      sent += 1;
      return run.client.send(spec, options);
    },
    defaultListing: run.probes.defaultListing,
    listing: run.probes.listing,
    listedPet: run.probes.listedPet,
    note(text) {
      note = text;
    },
    rateLimitRun: run.rateLimitRun,
    choices: run.choices,
  };
  const finish = (rest: Pick<CheckResult, 'status'> & Partial<CheckResult>): CheckResult => ({
    id: check.id,
    kind: check.kind,
    title: check.title,
    source: check.source,
    requests: sent,
    durationMs: performance.now() - started,
    ...rest,
  });
  try {
    await check.run(context);
    return finish({ status: 'pass', ...(note === undefined ? {} : { reason: note }) });
  } catch (error) {
    if (error instanceof CheckFailure)
      return finish({ status: check.advisory ? 'warn' : 'fail', failure: error.details });
    if (error instanceof NotExercised)
      return finish({ status: 'skip', skip: 'not-exercised', reason: error.message });
    if (error instanceof CouldNotRun)
      return finish({ status: 'skip', skip: 'could-not-run', reason: error.message });
    if (isStopSignal(error))
      return finish({
        status: 'skip',
        skip: 'could-not-run',
        reason: `stopped: ${error.message}`,
        ...(error instanceof RateLimitedError ? { stoppedByRateLimit: true } : {}),
      });
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return finish({
      status: 'fail',
      failure: { message: `harness error (please report): ${message}` },
    });
  }
}
