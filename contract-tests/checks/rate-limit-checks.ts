/**
 * Rate-limit checks, only with `--rate-limits`: they run after every conformance check and spend
 * what the key's current window still holds (X-RateLimit-Remaining), send exactly one request
 * past it, then honour Retry-After and expect to be served again. One refused request per run:
 * the interface's temporary ban (Limits, rule 3) is never approached.
 */
import { answeredAtEpochMs } from '../http/exchange.ts';
import { parseRetryAfter } from '../http/retry-after.ts';
import { activeCheck, couldNotRun, fail, priorities } from './check.ts';
import { expectStatus } from './expect.ts';
import { listPetsRequest } from './requests.ts';
import { servedPastZeroJudge } from './served-past-zero.ts';
import { resetAhead, windowReading } from './window-drop.ts';

/** The request the exhaustion sends: the cheapest read. */
const probe = () => listPetsRequest({ limit: 1 });

/** Sending past X-RateLimit-Remaining gets 429. */
export const rateLimitExceededGives429 = activeCheck({
  id: 'rateLimit.exceededGives429',
  title: 'the request after X-RateLimit-Remaining reaches 0 gets 429 (and none before it)',
  source: 'Limits, rule 1; Errors, 429 row',
  needs: ['rateLimitRun', 'rateLimits'],
  priority: priorities.rateLimitRun,
  // What the window still holds is known only at run time; the planner reserves it apart.
  cost: { fixed: 0, perRun: 0 },
  async run(context) {
    const { budget } = context.client;
    let remaining = context.client.quota().remaining;
    if (remaining === undefined)
      couldNotRun('no answer carried X-RateLimit-Remaining, so the window cannot be spent');
    const needed = (left: number) => {
      if (left + 2 > budget.left)
        couldNotRun(
          `spending the window needs ${left + 2} more requests (X-RateLimit-Remaining ${left}, 1 refused, 1 after Retry-After) but --budget ${budget.limit} leaves ${budget.left}; rerun with --budget ${budget.used + left + 2} or without --budget`,
        );
    };
    needed(remaining);
    const judge = servedPastZeroJudge();
    let longest = 0;
    for (;;) {
      const exchange = await context.send(probe(), { pace: false, retry429: false });
      const status = exchange.response?.status;
      if (status === 429) {
        if (remaining > 0)
          fail(`429 while the previous answer said X-RateLimit-Remaining: ${remaining}`, exchange);
        context.rateLimitRun.refusal = exchange;
        return;
      }
      expectStatus(exchange, [200], 'GET /pets?limit=1 while spending the window');
      const reading = windowReading(exchange.response?.headers, exchange.sentAtEpochMs);
      const left = reading?.remaining ?? 0;
      if (reading !== undefined) longest = Math.max(longest, resetAhead(reading));
      const problem = judge({
        remainingBefore: remaining,
        remaining: left,
        limit: reading?.limit ?? 0,
        longestResetSeconds: longest,
        sentAtMs: exchange.sentAtEpochMs,
        // Up to the answer: the server may have decided as late as it answered.
        answeredAtMs: answeredAtEpochMs(exchange),
      });
      if (problem !== undefined) fail(problem, exchange);
      remaining = left;
      needed(remaining);
    }
  },
});

/** After honouring Retry-After, the key is served again (and never banned). */
export const rateLimitServedAfterRetryAfter = activeCheck({
  id: 'rateLimit.servedAfterRetryAfter',
  title:
    'after waiting the time Retry-After gives, the next request is served (no ban for a client that honours it)',
  source: 'Limits, rules 2 and 3; Errors, 429 row ("retries after the time given in Retry-After")',
  needs: ['rateLimitRun', 'rateLimits'],
  priority: priorities.rateLimitRun,
  cost: { fixed: 0, perRun: 0 },
  follows: ['rateLimit.exceededGives429'],
  async run(context) {
    const refusal = context.rateLimitRun.refusal?.response;
    if (refusal === undefined)
      couldNotRun('rateLimit.exceededGives429 provoked no 429 to recover from');
    const retry = parseRetryAfter(refusal.headers.get('Retry-After'), context.client.clock.now());
    if (retry === undefined)
      couldNotRun('the 429 had no usable Retry-After (see rateLimit.retryAfterOn429)');
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
