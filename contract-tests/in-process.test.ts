import { expectOnlyOptInsSkipped, runContractSuite } from './suite.case.ts';
import { inProcessFakeTarget } from './targets/fake-target.ts';

runContractSuite({
  door: 'fake in-process (setupServer)',
  // A second key of another plan: the keys' windows are compared too.
  newTarget: () => inProcessFakeTarget({ secondApiKey: 'pro-demo-key' }),
  client: { seed: 20_241_122, budget: 5000 },
  options: { runs: 10, plan2: 'pro' },
  // Every check but the rate-limit exhaustion (no --rate-limits) and Prism runs against the fake.
  afterRun: expectOnlyOptInsSkipped,
});
