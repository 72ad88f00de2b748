/**
 * Replays that replay: for every check that can fail (each mutant's), the replay line
 * the report prints, parsed as the CLI parses it, runs the same check to the same failure, and
 * the narrowed run is not made incomplete by observers waiting for traffic it never sends.
 */
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { runMutant } from '../test/harness-fixtures/mutants/run-mutant.ts';
import { parseCliOptions } from './cli/options.ts';
import { replayLine } from './report/console-report.ts';
import type { CheckResult, SuiteResult } from './runner/results.ts';

const seed = 7;

const failing = (result: SuiteResult, strict: boolean): CheckResult[] =>
  result.results.filter((check) => check.status === 'fail' || (strict && check.status === 'warn'));

/**
 * What must be the same in the replay: the verdict, the shrunk counterexample and the message,
 * less its numbers (the ids the server assigned and the clock differ when fewer checks ran first).
 */
const failureOf = (check: CheckResult | undefined) => ({
  status: check?.status,
  message: check?.failure?.message.replace(/\d+/g, 'N'),
  counterexample: check?.failure?.counterexample,
});

/** Checks that could not run, as `id: reason`. */
const couldNotRun = (result: SuiteResult): string[] =>
  result.results
    .filter((check) => check.skip === 'could-not-run')
    .map((check) => `${check.id}: ${check.reason}`);

/**
 * A test replays every check its mutant fails, each a run of its own: a mutant Prism sees fail
 * eight checks, nine runs through Prism's validator, longer than vitest's default on a loaded
 * machine. It asserts what the replays say, not how fast they are.
 */
const replaysTimeoutMs = 120_000;

for (const mutant of mutants) {
  test(
    `the printed replay line reproduces ${mutant.expect} on ${mutant.name}`,
    async () => {
      const whole = await runMutant(mutant, { seed });
      const failures = failing(whole, mutant.advisory === true);
      expect(failures.map((check) => check.id)).toContain(mutant.expect);
      for (const failure of failures) {
        const line = replayLine({ command: 'petstore-contract --fake', seed }, failure);
        const [, ...flags] = line.split(' ');
        const options = parseCliOptions(flags, {});
        const replay = await runMutant(mutant, {
          seed: options.client.seed,
          only: options.suite.only,
        });
        const again = replay.results.find((check) => check.id === failure.id);
        expect(failureOf(again), line).toEqual(failureOf(failure));
        // Narrowing adds no "could not run": only what the whole run could not judge either.
        const before = new Set(couldNotRun(whole));
        expect(
          couldNotRun(replay).filter((reason) => !before.has(reason)),
          line,
        ).toEqual([]);
      }
    },
    replaysTimeoutMs,
  );
}
