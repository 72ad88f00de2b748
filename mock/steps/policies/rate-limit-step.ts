/** The rate-limit step of the pipeline, over the quota arithmetic of rate-limit.ts. */

import { admitRequest, type KeyUsage } from '../../base/quota/rate-limit.ts';
import { createSlot, type Policy } from '../../pipeline/pipeline.ts';
import { callerSlot } from './auth.ts';
import { rateLimitSlot } from './rate-limit-headers-step.ts';
import type { Refuse } from './refusal.ts';

/** Set when the rate limit refused: the epoch ms the client was told to wait for (the ban step reads it). */
export const refusedUntilSlot = createSlot<number>("the rate limit's refusal");

/** What the rate limit owns (the ledger of every key's usage) and how it refuses. */
interface RateLimitOptions {
  /** Usage by key id: authentication hands the caller its record; a control reset empties it. */
  readonly ledger: Map<string, KeyUsage>;
  readonly refuse: Refuse;
}

/**
 * The pipeline step: spends one request of the caller's quota, or answers 429 `rate_limited`
 * with Retry-After and leaves `refusedUntilSlot` for the ban step. It decides before anything
 * awaits, so concurrent requests can never be admitted past the limit.
 */
export function rateLimitStep({ ledger, refuse }: RateLimitOptions): Policy {
  const step: Policy['step'] = (context, next) => {
    const { usage, limits } = context.need(callerSlot);
    const admission = admitRequest(usage, limits, context.now);
    context.set(rateLimitSlot, admission.headers);
    if (admission.admitted) return next();
    context.set(refusedUntilSlot, admission.retryAtMs);
    return refuse(context, 'rate_limited', {
      rateLimit: admission.headers,
      retryAtMs: admission.retryAtMs,
    });
  };
  return { step, reset: () => ledger.clear() };
}
