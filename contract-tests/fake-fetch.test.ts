import { expect } from 'vitest';
import { runContractSuite } from './suite.case.ts';
import { fakeFetchTarget } from './targets/fake-target.ts';

// The same suite through fake.fetch: the behaviour core with no msw and no socket in between.
// In id order (`listOrder: 'oldest-first'`), where the other doors run the default newest first:
// the interface leaves the order to the server, so the harness must pass in both.
runContractSuite({
  door: 'fake.fetch (oldest first)',
  newTarget: () => fakeFetchTarget({ fake: { listOrder: 'oldest-first' } }),
  client: { seed: 20_241_122, budget: 5000 },
  options: { runs: 10 },
  afterRun(result) {
    expect(result.answered429).toBe(0);
  },
});
