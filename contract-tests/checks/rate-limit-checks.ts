/**
 * Rate-limit checks, only with `--rate-limits`: they spend the key's current window on purpose,
 * send exactly one request past it, then honour Retry-After and expect to be served again. One
 * refused request per run: the interface's temporary ban (Limits, rule 3) is never approached.
 */
import type { Exchange } from '../http/exchange.ts';
import { parseRetryAfter } from '../http/retry-after.ts';
import { activeCheck, fail, skip } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectStatus } from './expect.ts';
import { listPetsRequest } from './requests.ts';

const refusalKey = 'rateLimit.refusal';

function remainingOf(exchange: Exchange): number | undefined {
  const value = exchange.response?.headers.get('X-RateLimit-Remaining');
  return value !== null && value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The request the exhaustion sends: the cheapest read. */
const probe = () => listPetsRequest({ limit: 1 });

/** Sending past X-RateLimit-Remaining gets 429. */
export const rateLimitExceeded = activeCheck({
  id: 'rateLimit.exceededGives429',
  title: 'the request after X-RateLimit-Remaining reaches 0 gets 429 (and none before it)',
  source: 'Limits, rule 1; Errors, 429 row',
  needs: ['rateLimitRun', 'rateLimits'],
  cost: { fixed: 0, perRun: 0 },
  async run(context) {
    let exchange = await context.send(probe());
    expectStatus(exchange, [200], 'GET /pets?limit=1');
    let remaining = remainingOf(exchange);
    if (remaining === undefined)
      skip('X-RateLimit-Remaining is missing, so the window cannot be spent deliberately');
    // Both this check's requests and the recovery request must fit in the budget.
    if (remaining + 2 > context.client.budget.left)
      skip(
        `spending the window needs ${remaining + 2} requests, more than the ${context.client.budget.left} left of --budget`,
      );
    let limitGuard = remaining + 5;
    while (remaining > 0) {
      if (limitGuard-- <= 0) skip('the window kept resetting while it was being spent');
      exchange = await context.send(probe(), { pace: false, retry429: false });
      if (exchange.response?.status === 429)
        fail(`429 while the previous answer said X-RateLimit-Remaining: ${remaining}`, exchange);
      expectStatus(exchange, [200], 'GET /pets?limit=1 within the limit');
      remaining = remainingOf(exchange) ?? 0;
    }
    exchange = await context.send(probe(), { pace: false, retry429: false });
    expectStatus(exchange, [429], 'the request after X-RateLimit-Remaining reached 0');
    context.shared.set(refusalKey, exchange);
  },
});

/** After honouring Retry-After, the key is served again (and never banned). */
export const rateLimitRecovers = activeCheck({
  id: 'rateLimit.servedAfterRetryAfter',
  title:
    'after waiting the time Retry-After gives, the next request is served (no ban for a client that honours it)',
  source: 'Limits, rules 2 and 3; Errors, 429 row ("retries after the time given in Retry-After")',
  needs: ['rateLimitRun', 'rateLimits'],
  cost: { fixed: 1, perRun: 0 },
  async run(context: CheckContext) {
    const refusal = context.shared.get(refusalKey) as Exchange | undefined;
    if (refusal?.response === undefined) skip('rateLimit.exceededGives429 provoked no 429');
    const retry = parseRetryAfter(
      refusal.response.headers.get('Retry-After'),
      context.client.clock.now(),
    );
    if (retry === undefined)
      skip('the 429 had no usable Retry-After (see rateLimit.retryAfterOn429)');
    // The client waits for Retry-After (and for X-RateLimit-Reset) before sending.
    const exchange = await context.send(probe(), { retry429: false });
    if (exchange.response?.status === 429)
      fail(
        `still 429 after waiting the ${Math.ceil(retry.waitMs / 1000)} s Retry-After asked for`,
        exchange,
      );
    expectStatus(exchange, [200], 'GET /pets?limit=1 after Retry-After');
  },
});
