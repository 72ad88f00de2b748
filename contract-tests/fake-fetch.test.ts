import { expect } from 'vitest';
import { runContractSuite } from './suite.case.ts';
import { fakeFetchTarget } from './targets/fake-target.ts';

// The same suite through fake.fetch: the behaviour core with no msw and no socket in between.
runContractSuite({
  door: 'fake.fetch',
  newTarget: () => fakeFetchTarget(),
  client: { seed: 20_241_122, budget: 5000 },
  options: { runs: 10 },
  afterRun(result) {
    expect(result.answered429).toBe(0);
  },
});
