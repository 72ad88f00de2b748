/**
 * Prism as a second opinion: the stateless checks run clean against `prism mock` of the document
 * (no false alarms), a run through `prism proxy` over the fake is clean too and counts every
 * request it puts on the wire, and Prism's own validator flags a fake whose answers break the
 * document.
 */
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { failedIds } from './runner/results.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { httpFakeTarget } from './targets/fake-target.ts';
import { prismMockTarget, viaPrism } from './targets/prism-targets.ts';

test('the checks prism mock can support pass against it; the rest are skipped with the reason', async () => {
  const target = await prismMockTarget();
  try {
    const result = await runSuite({ client: createRunClient(target, { seed: 11, budget: 60 }) });
    expect(failedIds(result, true)).toEqual([]);
    const statusOf = (id: string) => result.results.find((check) => check.id === id);
    for (const id of ['listPets.responseShape', 'createPet.created', 'auth.missingKey'])
      expect(statusOf(id)?.status).toBe('pass');
    // Its example listing holds one pet whatever the limit: no page could exceed limit=1, so
    // the check is not exercised there, never a pass.
    expect(statusOf('listPets.limitRespected')).toMatchObject({
      status: 'skip',
      skip: 'not-exercised',
      reason: expect.stringMatching(/a page above limit=1 could not appear: 1 pet matches/),
    });
    expect(statusOf('listPets.statusFilter')?.reason).toMatch(
      /^prism mock answers from the document alone/,
    );
    expect(statusOf('rateLimit.remainingDecreases')?.reason).toMatch(
      /^prism mock enforces no rate limits/,
    );
  } finally {
    await target.close();
  }
});

test('through prism proxy, the fake passes every check and every answer Prism judged; re-reads are counted', async () => {
  let served = 0;
  const target = await viaPrism(
    await httpFakeTarget({
      fake: {
        onExchange: () => {
          served += 1;
        },
      },
    }),
  );
  try {
    let recorded = 0;
    const result = await runSuite({
      client: createRunClient(target, {
        seed: 12,
        budget: 2000,
        onExchange: () => {
          recorded += 1;
        },
      }),
      runs: 4,
    });
    expect(failedIds(result, true)).toEqual([]);
    expect(result.results.find((check) => check.id === 'prism.exchangesValid')?.status).toBe(
      'pass',
    );
    // Answers with int64 values past 2^53 were re-read from the fake: each is one more request.
    expect(result.requests).toBeGreaterThan(recorded);
    expect(result.requests).toBe(served);
  } finally {
    await target.close();
  }
});

test("Prism's validator flags answers that break the document", async () => {
  const fault = mutants.find((mutant) => mutant.name === 'listed-pet-without-category');
  const target = await viaPrism(
    await httpFakeTarget(fault === undefined ? {} : { wrap: fault.wrap }),
  );
  try {
    const result = await runSuite({
      client: createRunClient(target, { seed: 13, budget: 300 }),
      runs: 2,
      only: ['listPets.'],
    });
    const prism = result.results.find((check) => check.id === 'prism.exchangesValid');
    expect(prism?.status).toBe('fail');
    expect(prism?.failure?.message).toMatch(/must have required property 'categoryId'/);
  } finally {
    await target.close();
  }
});
