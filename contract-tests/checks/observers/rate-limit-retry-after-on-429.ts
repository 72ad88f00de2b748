import { rateLimitHeaders } from '../../contract/interface-facts.ts';
import { parseRetryAfter } from '../../http/retry-after.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf } from './observed-answer.ts';

/** Retry-After on every 429. */
export const rateLimitRetryAfterOn429 = observerCheck({
  id: 'rateLimit.retryAfterOn429',
  title: 'every 429 carries Retry-After as delta-seconds or an HTTP-date',
  source: 'Errors, 429 row; Limits, rule 2 (the format is not shown: both RFC 9110 forms accepted)',
  appliesTo: answered((response) => response.status === 429),
  judge(exchange) {
    const { headers } = answerOf(exchange);
    const value = headers.get('Retry-After');
    if (parseRetryAfter(value, exchange.sentAtEpochMs) !== undefined) return undefined;
    // Nothing at all says when to come back (a gateway's own limiter answers so): the run does
    // not wait to find out, it reports it at once and backs off 1, 2, 4 s (Limits, rule 2).
    if (value === null && rateLimitHeaders.every((name) => headers.get(name) === null))
      return "a 429 without Retry-After and without X-RateLimit-*: nothing tells the client when to retry (a gateway's own limiter?)";
    return `a 429 with Retry-After ${JSON.stringify(value)}`;
  },
  whenUnseen: (run) =>
    run.rateLimitRun
      ? {
          reason: 'no 429 was seen, although --rate-limits asked for one',
          expected: () => true,
        }
      : run.passive === true
        ? { reason: 'no 429 was seen in the traffic' }
        : { reason: 'no 429 was seen (--rate-limits provokes one)' },
});
