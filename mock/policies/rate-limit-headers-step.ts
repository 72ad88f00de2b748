/** X-RateLimit-* on every answer of the interface, errors included (interface: Limits). */
import type { Step } from '../core/pipeline.ts';
import type { Limits } from './plans.ts';
import { anonymousRateLimit, rateLimitHeaderRecord } from './rate-limit.ts';
import { rateLimitSlot } from './refusal.ts';

/**
 * The step: writes the X-RateLimit-* values a later step left (the caller's window, or a
 * refusal's), else the anonymous ones: a request no key's window counts still learns the limits.
 */
export function rateLimitHeadersStep(plans: Readonly<Record<string, Limits>>): Step {
  return {
    after(context, answer) {
      const rateLimit = context.get(rateLimitSlot) ?? anonymousRateLimit(plans, context.now);
      Object.assign(answer.headers, rateLimitHeaderRecord(rateLimit));
      return answer;
    },
  };
}
