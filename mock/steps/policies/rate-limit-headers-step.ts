/** X-RateLimit-* on every answer of the interface, errors included (interface: Limits). */

import { authenticate } from '../../base/quota/authenticate.ts';
import type { KeyEntry, Limits } from '../../base/quota/plans.ts';
import { limitsFor } from '../../base/quota/plans.ts';
import {
  anonymousRateLimit,
  emptyUsage,
  type KeyUsage,
  peekRateLimit,
  type RateLimitHeaders,
  rateLimitHeaderRecord,
  writeRateLimitHeaders,
} from '../../base/quota/rate-limit.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';
import { callerSlot, identifiedKey } from './auth.ts';

/** The X-RateLimit-* values the answer carries; empty means the anonymous ones. */
export const rateLimitSlot = createSlot<RateLimitHeaders>("the answer's rate-limit values");

/** What the headers are read from: the keys, their plans and their usage, as the fake holds them. */
export interface RateLimitSources {
  readonly keys: readonly KeyEntry[];
  readonly plans: Readonly<Record<string, Limits>>;
  /** Rate-limit usage by key id. */
  readonly usage: ReadonlyMap<string, KeyUsage>;
}

/**
 * The X-RateLimit-* values of an answer no rate-limit step decided (a refusal made before the
 * rate limit: a bad Host, an oversized body, a 401): the caller's own window, without spending a
 * request, when the request named a valid key ("Limit applying to the caller", interface:
 * Limits); else the anonymous ones.
 */
function windowOf(
  { plans, usage }: RateLimitSources,
  key: KeyEntry | null,
  now: number,
): RateLimitHeaders {
  if (key === null) return anonymousRateLimit(plans, now);
  // A copy for a key never seen: peeking rolls the windows, and must not enrol the key.
  const record = usage.get(key.id) ?? emptyUsage();
  return peekRateLimit(record, limitsFor(plans, key), now);
}

/** The caller's window as the three headers, for an answer a door gives before any pipeline. */
export function callerRateLimitHeaders(
  sources: RateLimitSources,
  authorization: string | null,
  now: number,
): Record<string, string> {
  // No pipeline ran, so no identify step: the header is authenticated here.
  const identity = authenticate(authorization, sources.keys);
  return rateLimitHeaderRecord(windowOf(sources, identity.ok ? identity.key : null, now));
}

/**
 * The step: writes the X-RateLimit-* values a later step left (the caller's window, or a
 * refusal's), else the window of the key the identify step found: a request no window counted
 * still learns its limits.
 */
export function rateLimitHeadersStep(sources: RateLimitSources): Step {
  return {
    after(context, answer) {
      const rateLimit =
        context.get(rateLimitSlot) ??
        windowOf(
          sources,
          context.get(callerSlot)?.key ?? identifiedKey(context) ?? null,
          context.now,
        );
      writeRateLimitHeaders(answer.headers, rateLimit);
      return answer;
    },
  };
}
