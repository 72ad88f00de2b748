/** The rate-limit step of the pipeline, over the quota arithmetic of rate-limit.ts. */
import { callerOf, type Step } from '../pipeline.ts';
import { admitRequest } from './rate-limit.ts';
import { refuse } from './refusal.ts';

/**
 * The pipeline step: spends one request of the caller's quota, or answers 429 `rate_limited`
 * with Retry-After and leaves `refusedUntil` on the exchange for the ban step. It decides before
 * anything awaits, so concurrent requests can never be admitted past the limit.
 */
export const rateLimitStep: Step = (exchange, next) => {
  const { usage, limits } = callerOf(exchange);
  const { now } = exchange;
  const admission = admitRequest(usage, limits, now);
  exchange.rateLimit = admission.headers;
  if (admission.admitted) return next();
  exchange.refusedUntil = admission.retryAtMs;
  return refuse(exchange, 'rate_limited', {
    rateLimit: admission.headers,
    retryAtMs: admission.retryAtMs,
  });
};
