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
    const value = answerOf(exchange).headers.get('Retry-After');
    return parseRetryAfter(value, exchange.sentAtEpochMs) === undefined
      ? `a 429 with Retry-After ${JSON.stringify(value)}`
      : undefined;
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
