import { expect } from 'vitest';
import { runContractSuite } from './suite.case.ts';
import { browserTabsTarget } from './targets/browser-tabs-target.ts';

// With --rate-limits on the Free demo key: the two tabs spend one key's windows together, so the
// pacer must read X-RateLimit-* across both, and the only 429 is the one provoked on purpose.
runContractSuite({
  door: 'fake in two Chromium tabs, Free key, --rate-limits',
  newTarget: () => browserTabsTarget({ tabs: 2, apiKey: 'free-demo-key' }),
  client: { seed: 11, budget: 900 },
  options: { runs: 5, rateLimits: true },
  afterRun(result) {
    expect(result.answered429).toBe(1);
    expect(result.waitedMs).toBeGreaterThan(60_000);
    const statusOf = (id: string) => result.results.find((check) => check.id === id)?.status;
    expect(statusOf('rateLimit.exceededGives429')).toBe('pass');
    expect(statusOf('rateLimit.servedAfterRetryAfter')).toBe('pass');
    expect(statusOf('rateLimit.retryAfterOn429')).toBe('pass');
  },
});
