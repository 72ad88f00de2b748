/**
 * The one way a step refuses a request it lets go no further (a 429, a ban, a forced or a chaos
 * answer): it sets the X-RateLimit-* values the answer carries and writes Retry-After in the
 * fake's format, so every refusal says when to come back the same way.
 */

import { type Answer, errorAnswer } from '../../base/messages/answer.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';
import type { RateLimitHeaders } from '../../base/quota/rate-limit.ts';
import { type RetryAfterFormat, retryAfterValue } from '../../base/quota/retry-after.ts';
import type { Context } from '../../pipeline/pipeline.ts';
import { rateLimitSlot } from './rate-limit-headers-step.ts';

/** How a step refuses. */
interface Refusal {
  /** The X-RateLimit-* values the answer carries. */
  readonly rateLimit: RateLimitHeaders;
  /** A more specific message than the code's. */
  readonly message?: string;
  /** When the client may retry, on the fake's clock; no Retry-After when absent. */
  readonly retryAtMs?: number;
  /** The shortest Retry-After in seconds (default 1; 0 for a forced answer that asks no wait). */
  readonly minWaitSeconds?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Writes refusals in one Retry-After format. */
export type Refuse = (context: Context, code: ErrorCode, refusal: Refusal) => Answer;

/** The refusal writer of a fake whose Retry-After is in `format`. */
export function createRefuse(format: RetryAfterFormat): Refuse {
  return (context, code, refusal) => {
    context.set(rateLimitSlot, refusal.rateLimit);
    if (refusal.retryAtMs === undefined) return errorAnswer(code, refusal.message, refusal.headers);
    const retryAfter = retryAfterValue(
      format,
      refusal.retryAtMs,
      context.now,
      refusal.minWaitSeconds,
    );
    return errorAnswer(code, refusal.message, { ...refusal.headers, 'Retry-After': retryAfter });
  };
}
