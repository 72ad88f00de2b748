/**
 * Proof of strength: every single-fault variant of the fake must make the harness fail, naming
 * the check for the rule it breaks; the unmodified fake (the same wrapper, no fault) must pass.
 */
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { intercept } from '../test/harness-fixtures/mutants/intercept.ts';
import type { Mutant } from '../test/harness-fixtures/mutants/mutant.ts';
import { type MutantRun, runMutant } from '../test/harness-fixtures/mutants/run-mutant.ts';
import { smallWindowFake } from '../test/harness-fixtures/mutants/small-window.ts';
import { checkIds } from './checks/registry.ts';
import { failedIds } from './runner/results.ts';

async function run(mutant: MutantRun, strict = false) {
  return failedIds(await runMutant(mutant), strict);
}

test('there are at least 25 mutants, with distinct names', () => {
  expect(mutants.length).toBeGreaterThanOrEqual(25);
  expect(new Set(mutants.map((mutant) => mutant.name)).size).toBe(mutants.length);
});

test('the harness passes on the real fake behind the same (fault-free) wrapper', async () => {
  const passThrough = (fake: Parameters<Mutant['wrap']>[0]) =>
    intercept(fake, (call) => call.forward());
  expect(await run({ wrap: passThrough })).toEqual([]);
  expect(await run({ wrap: passThrough, rateLimits: true, fake: smallWindowFake }, true)).toEqual(
    [],
  );
  expect(
    await run({ wrap: passThrough, runAs: { apiKey: 'free-demo-key', plan: 'free' } }, true),
  ).toEqual([]);
});

test('every check has a mutant: each could fail on the fake it passes on', () => {
  const caught = new Set(mutants.map((mutant) => mutant.expect));
  expect(checkIds.filter((id) => !caught.has(id))).toEqual([]);
});

for (const mutant of mutants) {
  test(`catches ${mutant.name} (${mutant.fault}) with ${mutant.expect}${mutant.advisory ? ' [--strict]' : ''}`, async () => {
    expect(await run(mutant, mutant.advisory)).toContain(mutant.expect);
  });
}
