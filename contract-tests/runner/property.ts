/**
 * Runs a fast-check property for a check and turns its verdict into the harness's terms: the
 * shrunk counterexample, fast-check's seed and path, and the exchange that showed the failure.
 * Transport faults are not shrunk (every retry would wait for another timeout), and a spent
 * budget ends the property quietly instead of counting as a failure.
 */
import fc from 'fast-check';
import { CheckFailure } from '../checks/check.ts';
import type { CheckContext } from '../checks/check-context.ts';
import { BudgetSpentError } from '../http/budget.ts';
import { RateLimitedError } from '../http/pacer.ts';

/** Thrown when a check's own request allowance is spent (shrinking stops there). */
export class AllowanceSpentError extends Error {
  constructor() {
    super("the check's request allowance is spent");
    this.name = 'AllowanceSpentError';
  }
}

/** Whether an error means "stop sending", not "the server broke a rule". */
export function isStopSignal(error: unknown): error is Error {
  return (
    error instanceof BudgetSpentError ||
    error instanceof RateLimitedError ||
    error instanceof AllowanceSpentError
  );
}

/**
 * Checks `predicate` on `context.runs` values of `arbitrary` (or `runs`); throws CheckFailure.
 * @example await forAll(context, fc.integer({ min: 1, max: 100 }), async (limit) => { ... });
 */
export async function forAll<T>(
  context: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  runs = context.runs,
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
  const details = await fc.check(property, { seed: context.seed, numRuns: Math.max(1, runs) });
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
