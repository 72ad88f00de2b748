/**
 * Every active check keeps to its declared cost: what the planner budgets is what it may send.
 * Shared probes (the full listing, a listed pet by id) are planned apart and sent by the run.
 */
import { expect, test } from 'vitest';
import { costAt } from './checks/check.ts';
import { allChecks } from './checks/registry.ts';
import { spendsWindow } from './runner/plan.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { directFakeTarget } from './targets/fake-target.ts';

for (const runs of [1, 4]) {
  test(`at ${runs} run(s) per property, no active check sends more than its declared cost`, async () => {
    const target = await directFakeTarget({ secondApiKey: 'pro-demo-key' });
    try {
      const result = await runSuite({
        client: createRunClient(target, { seed: 17, budget: 5000 }),
        runs,
      });
      for (const check of allChecks) {
        if (check.kind !== 'active' || spendsWindow(check)) continue;
        const outcome = result.results.find((entry) => entry.id === check.id);
        expect(outcome?.status, check.id).toBe('pass');
        const cost = result.writes ? check.cost : (check.readOnlyCost ?? check.cost);
        expect(outcome?.requests, check.id).toBeLessThanOrEqual(costAt(cost, runs));
      }
    } finally {
      await target.close();
    }
  });
}
