/** Runs the suite against one mutant, as the mutant tests do (seed 7, 5 runs per property). */
import type { SuiteResult } from '../../../contract-tests/runner/results.ts';
import { createRunClient } from '../../../contract-tests/runner/run-client.ts';
import { runSuite } from '../../../contract-tests/runner/run-suite.ts';
import { directFakeTarget, httpFakeTarget } from '../../../contract-tests/targets/fake-target.ts';
import { viaPrism } from '../../../contract-tests/targets/prism-targets.ts';
import type { Mutant } from './mutant.ts';
import { smallWindowKey } from './small-window.ts';

/** What a mutant run needs of the mutant. */
export type MutantRun = Pick<
  Mutant,
  'wrap' | 'rateLimits' | 'fake' | 'runAs' | 'secondKey' | 'viaPrism'
>;

/**
 * The whole suite against `mutant` through the fake's msw handlers; `only` narrows it as a replay
 * line does. Pets are named with a fixed prefix (the CLI's is the time), so two runs compare.
 */
export async function runMutant(
  mutant: MutantRun,
  selection: { readonly seed?: number; readonly only?: readonly string[] | undefined } = {},
): Promise<SuiteResult> {
  const apiKey = mutant.runAs?.apiKey ?? (mutant.rateLimits ? smallWindowKey : undefined);
  const options = {
    wrap: mutant.wrap,
    // In id order (the fake's default is newest first): a listing's first page is then the
    // seed's whatever ran before, so a whole run and its narrowed replay quote the same page in
    // their messages (replay.test.ts).
    fake: { listOrder: 'oldest-first' as const, ...mutant.fake },
    apiKey,
    secondApiKey: mutant.secondKey?.apiKey,
  };
  // Prism runs in its own process, so it needs the fake on a port.
  const target = mutant.viaPrism
    ? await viaPrism(await httpFakeTarget(options))
    : await directFakeTarget(options);
  try {
    return await runSuite({
      client: createRunClient(target, { seed: selection.seed ?? 7, budget: 5000, timeoutMs: 2000 }),
      runs: 5,
      rateLimits: mutant.rateLimits ?? false,
      plan: mutant.runAs?.plan,
      plan2: mutant.secondKey?.plan,
      only: selection.only,
      runPrefix: 'contract-mutant-',
    });
  } finally {
    await target.close();
  }
}
