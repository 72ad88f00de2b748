import { browserTabsTarget } from '../test/support/browser-tabs-target.ts';
import { expectOneProvoked429, runContractSuite } from './suite.case.ts';

// With --rate-limits on the Free demo key: the two tabs spend one key's windows together, so the
// pacer must read X-RateLimit-* across both, and the only 429 is the one provoked on purpose.
runContractSuite({
  door: 'fake in two Chromium tabs, Free key, --rate-limits',
  newTarget: () => browserTabsTarget({ tabs: 2, apiKey: 'free-demo-key' }),
  client: { seed: 11, budget: 900 },
  options: { runs: 5, rateLimits: true },
  afterRun: expectOneProvoked429,
});
