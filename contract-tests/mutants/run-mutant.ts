/** Runs the suite against one mutant, as the mutant tests do (seed 7, 5 runs per property). */
import type { SuiteResult } from '../runner/results.ts';
import { runSuite } from '../runner/run-suite.ts';
import { directFakeTarget } from '../targets/fake-target.ts';
import type { Mutant } from './mutant.ts';
import { smallWindowKey } from './small-window.ts';

/** What a mutant run needs of the mutant. */
export type MutantRun = Pick<Mutant, 'wrap' | 'rateLimits' | 'fake' | 'runAs' | 'secondKey'>;

/**
 * The whole suite against `mutant` through the fake's msw handlers; `only` narrows it as a replay
 * line does. Pets are named with a fixed prefix (the CLI's is the time), so two runs compare.
 */
export async function runMutant(
  mutant: MutantRun,
  selection: { readonly seed?: number; readonly only?: readonly string[] | undefined } = {},
): Promise<SuiteResult> {
  const apiKey = mutant.runAs?.apiKey ?? (mutant.rateLimits ? smallWindowKey : undefined);
  const target = await directFakeTarget({
    wrap: mutant.wrap,
    ...(mutant.fake === undefined ? {} : { fake: mutant.fake }),
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(mutant.secondKey === undefined ? {} : { secondApiKey: mutant.secondKey.apiKey }),
  });
  try {
    return await runSuite({
      target,
      seed: selection.seed ?? 7,
      budget: 5000,
      runs: 5,
      rateLimits: mutant.rateLimits ?? false,
      ...(mutant.runAs === undefined ? {} : { plan: mutant.runAs.plan }),
      ...(mutant.secondKey === undefined ? {} : { plan2: mutant.secondKey.plan }),
      ...(selection.only === undefined ? {} : { only: selection.only }),
      timeoutMs: 2000,
      runPrefix: 'contract-mutant-',
    });
  } finally {
    await target.close();
  }
}
