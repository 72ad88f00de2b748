import { expect } from 'vitest';
import { runContractSuite } from './suite.case.ts';
import { fetchOnlyFakeTarget } from './targets/fake-target.ts';

runContractSuite({
  door: 'fake in-process (fetch-only door)',
  // A second key of another plan, as through setupServer: the keys' windows are compared too.
  newTarget: () => fetchOnlyFakeTarget({ secondApiKey: 'pro-demo-key' }),
  options: { seed: 20_241_122, budget: 5000, runs: 10, plan2: 'pro' },
  afterRun(result) {
    // As through setupServer: every check but the rate-limit exhaustion (no --rate-limits) and
    // Prism runs, and passes (runContractSuite asserts the verdict).
    const skipped = result.results
      .filter((check) => check.status === 'skip')
      .map((check) => check.id);
    expect(skipped.sort()).toEqual(
      [
        'prism.exchangesValid',
        'rateLimit.planLimits',
        'rateLimit.exceededGives429',
        'rateLimit.retryAfterOn429',
        'rateLimit.servedAfterRetryAfter',
      ].sort(),
    );
    expect(result.answered429).toBe(0);
  },
});
