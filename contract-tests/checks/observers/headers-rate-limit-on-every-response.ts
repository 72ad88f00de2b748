import { rateLimitHeaders } from '../../contract/interface-facts.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** The IETF draft's rate-limit fields (draft-6 to draft-8), which are not the interface's. */
const ietfRateLimitFields = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
] as const;

/** X-RateLimit-* on every response. */
export const headersRateLimitOnEveryResponse = observerCheck({
  id: 'headers.rateLimitOnEveryResponse',
  title: 'every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
  source: 'Limits, "Rate limit headers (present on every response)"',
  appliesTo: answered(),
  judge(exchange) {
    const response = answerOf(exchange);
    const missing = rateLimitHeaders.filter((name) => response.headers.get(name) === null);
    if (missing.length === 0) return undefined;
    // Servers built on express-rate-limit / hono-rate-limiter often send the IETF draft's fields
    // instead: say so, since the interface names X-RateLimit-* and nothing else.
    const ietf = ietfRateLimitFields.filter((name) => response.headers.get(name) !== null);
    return `a ${response.status} answer without ${missing.join(', ')}${ietf.length === 0 ? '' : ` (it carries the IETF draft's ${ietf.join(', ')} instead; the interface promises X-RateLimit-*)`}`;
  },
  whenUnseen: notExercised('no answer was seen'),
});
