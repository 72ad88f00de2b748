/**
 * Runs a fast-check property for a check and turns its verdict into the harness's terms: the
 * shrunk counterexample, fast-check's seed and path, and the exchange that showed the failure.
 * Transport faults are not shrunk (every retry would wait for another timeout), and a spent
 * budget ends the property quietly instead of counting as a failure.
 */
import fc from 'fast-check';
import { BudgetSpentError } from '../http/budget.ts';
import { RateLimitedError, RunDurationError } from '../http/pacer.ts';
import { CheckFailure, CouldNotRun } from './check.ts';
import type { CheckContext } from './check-context.ts';

/** Thrown when a check's own request allowance is spent (shrinking stops there). */
export class AllowanceSpentError extends Error {
  constructor() {
    super("the check's request allowance is spent");
    this.name = 'AllowanceSpentError';
  }
}

/** Whether an error means "stop: no verdict", not "the server broke a rule". */
export function isStopSignal(error: unknown): error is Error {
  return (
    error instanceof BudgetSpentError ||
    error instanceof RateLimitedError ||
    error instanceof RunDurationError ||
    error instanceof AllowanceSpentError ||
    error instanceof CouldNotRun
  );
}

/** Options of `forAll`. */
export interface ForAllOptions<T> {
  /**
   * The property's edge classes, always tried first whatever the seed; they are its first runs
   * (declare their number as the check's `cost.examples`).
   */
  readonly examples?: readonly T[];
}

/**
 * Checks `predicate` on `examples`, then on values of `arbitrary` up to `context.runs` runs in
 * all; throws CheckFailure.
 * @example await forAll(context, fc.integer({ min: 1, max: 100 }), async (limit) => { ... });
 */
export async function forAll<T>(
  context: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: ForAllOptions<T> = {},
): Promise<void> {
  let stop: Error | undefined;
  let firstFault: CheckFailure | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (stop !== undefined || firstFault !== undefined) return true;
    try {
      await predicate(value);
      return true;
    } catch (error) {
      if (isStopSignal(error)) {
        stop = error;
        return true;
      }
      if (error instanceof CheckFailure && error.details.exchange?.fault !== undefined)
        firstFault = error;
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed: context.seed,
    // fast-check counts examples within numRuns: they are the first runs.
    numRuns: Math.max(1, context.runs, options.examples?.length ?? 0),
    examples: (options.examples ?? []).map((value) => [value] as [T]),
  });
  if (details.failed && details.counterexample !== null) {
    const error = details.errorInstance;
    const base = error instanceof CheckFailure ? error.details : { message: String(error) };
    const notes = [...(base.notes ?? [])];
    if (stop !== undefined) notes.push(`shrinking stopped early: ${stop.message}`);
    throw new CheckFailure({
      ...base,
      counterexample: fc.stringify(details.counterexample[0]),
      propertySeed: details.seed,
      path: details.counterexamplePath,
      notes,
    });
  }
  if (details.failed) throw new Error(`fast-check gave up: ${String(details.errorInstance)}`);
  if (stop !== undefined) throw stop;
}
