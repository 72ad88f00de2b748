/** The forced-answer step of the pipeline, over the queue of forced-responses.ts. */
import { errorTemplates } from '../core/errors.ts';
import { callerOf, type Step } from '../pipeline.ts';
import { invalidTokenChallenge } from '../policies/auth.ts';
import { peekRateLimit } from '../policies/rate-limit.ts';
import { refuse } from '../policies/refusal.ts';
import { forceableStatuses } from './forced-responses.ts';

/**
 * The pipeline step, after authentication: spends one forced response of the operation, if any
 * is queued, and answers with it. A forced 429 or 503 says when to retry in the fake's
 * Retry-After format (`0` included; a 503 whose rule says `null` sends none); a forced response
 * does not count against the key's quota.
 */
export const forcedStep: Step = (exchange, next) => {
  const { operationId } = exchange.route;
  const rule = operationId === undefined ? undefined : exchange.state.forced.take(operationId);
  if (rule === undefined) return next();
  const { usage, limits } = callerOf(exchange);
  const { now } = exchange;
  const peek = peekRateLimit(usage, limits, now);
  const code = forceableStatuses[rule.status];
  const retries = (rule.status === 429 || rule.status === 503) && rule.retryAfterSeconds !== null;
  return refuse(exchange, code, {
    rateLimit: rule.status === 429 ? { ...peek, remaining: 0 } : peek,
    message: `${errorTemplates[code].message} (forced by the control surface)`,
    ...(retries
      ? { retryAtMs: now + (rule.retryAfterSeconds ?? 0) * 1000, minWaitSeconds: 0 }
      : {}),
    ...(rule.status === 401 ? { headers: { 'WWW-Authenticate': invalidTokenChallenge } } : {}),
  });
};
