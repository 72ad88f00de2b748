import { smallWindowFake, smallWindowKey } from '../test/harness-fixtures/mutants/small-window.ts';
import { expectOneProvoked429, runContractSuite } from './suite.case.ts';
import { httpFakeTarget } from './targets/fake-target.ts';

// Over a real port, with a key of 8 requests a minute and --rate-limits: the pacer must wait for
// every window reset (on the fake's virtual clock) and the only 429 is the one provoked on purpose.
runContractSuite({
  door: 'fake over HTTP, 8 requests/minute, --rate-limits',
  newTarget: () =>
    httpFakeTarget({
      fake: { ...smallWindowFake, retryAfterFormat: 'http-date' },
      apiKey: smallWindowKey,
    }),
  client: { seed: 7, budget: 900 },
  options: { runs: 5, rateLimits: true },
  afterRun: expectOneProvoked429,
});
