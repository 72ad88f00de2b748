import { rateLimitHeaders } from '../../contract/interface-facts.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** The headers hold integers, and Remaining never exceeds Limit. */
export const headersRateLimitValues = observerCheck({
  id: 'headers.rateLimitValues',
  title: 'X-RateLimit-* are non-negative integers and Remaining <= Limit',
  source: 'Limits, rate limit headers: limit, requests remaining, Unix timestamp of the reset',
  appliesTo: answered((response) =>
    rateLimitHeaders.every((name) => response.headers.get(name) !== null),
  ),
  judge(exchange) {
    const response = answerOf(exchange);
    for (const name of rateLimitHeaders) {
      const value = response.headers.get(name) ?? '';
      if (!/^\d+$/.test(value.trim()))
        return `${name}: ${JSON.stringify(value)} is not a non-negative integer`;
    }
    const limit = Number(response.headers.get('X-RateLimit-Limit'));
    const remaining = Number(response.headers.get('X-RateLimit-Remaining'));
    if (remaining > limit)
      return `X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`;
    return undefined;
  },
  whenUnseen: notExercised('no response carried the three headers'),
});
