import { expectOnlyOptInsSkipped, runContractSuite } from './suite.case.ts';
import { fetchOnlyFakeTarget } from './targets/fake-target.ts';

runContractSuite({
  door: 'fake in-process (fetch-only door)',
  // As through setupServer, with a second key of another plan.
  newTarget: () => fetchOnlyFakeTarget({ secondApiKey: 'pro-demo-key' }),
  client: { seed: 20_241_122, budget: 5000 },
  options: { runs: 10, plan2: 'pro' },
  afterRun: expectOnlyOptInsSkipped,
});
