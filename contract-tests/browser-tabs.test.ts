import { browserTabsTarget } from '../test/support/browser-tabs-target.ts';
import { expectOnlyOptInsSkipped, runContractSuite } from './suite.case.ts';

// The browser door as frontend developers meet it: one fake shared by two tabs of real Chromium,
// the tab that runs it and a tab that sends it its requests, the suite's requests taking turns.
runContractSuite({
  door: 'fake in two Chromium tabs (service worker, one shared fake)',
  newTarget: () =>
    browserTabsTarget({ tabs: 2, apiKey: 'enterprise-demo-key', secondApiKey: 'pro-demo-key' }),
  client: { seed: 20_261_126, budget: 5000 },
  options: { runs: 10, plan2: 'pro' },
  afterRun: expectOnlyOptInsSkipped,
});
