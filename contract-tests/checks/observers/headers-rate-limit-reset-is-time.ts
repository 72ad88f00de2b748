import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** Clock skew allowed between the harness and the server when reading X-RateLimit-Reset. */
const resetSkewSeconds = 5;
/** The longest window the interface names: a day. */
const longestWindowSeconds = 86_400;

/** Reset is the Unix time of the reset: not before the request, and at most a day after it. */
export const headersRateLimitResetIsTime = observerCheck({
  id: 'headers.rateLimitResetIsTime',
  title:
    'X-RateLimit-Reset is a Unix time in seconds, no earlier than the request (5 s of clock skew allowed) and at most a day after it',
  source:
    'Limits, X-RateLimit-Reset "Unix timestamp at which the limit resets"; windows of a minute and a day',
  needs: ['rateLimits'],
  appliesTo: answered((response) =>
    /^\d+$/.test(response.headers.get('X-RateLimit-Reset')?.trim() ?? ''),
  ),
  judge(exchange) {
    const reset = Number(answerOf(exchange).headers.get('X-RateLimit-Reset'));
    const sent = exchange.sentAtEpochMs / 1000;
    const sentAt = `sent at ${Math.floor(sent)}, ${new Date(exchange.sentAtEpochMs).toISOString()}`;
    if (reset < Math.floor(sent) - resetSkewSeconds)
      return `X-RateLimit-Reset ${reset} is before the request (${sentAt}): a delay in seconds, or a time in the past, not the Unix time of the reset`;
    if (reset > Math.ceil(sent) + longestWindowSeconds + resetSkewSeconds)
      return `X-RateLimit-Reset ${reset} is more than a day after the request (${sentAt}): not a Unix time in seconds (milliseconds?)`;
    return undefined;
  },
  whenUnseen: notExercised('no response carried X-RateLimit-Reset as an integer'),
});
