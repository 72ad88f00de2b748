/** X-RateLimit-* on every answer of the interface, errors included (interface: Limits). */

import type { KeyEntry, Limits } from '../../base/quota/plans.ts';
import { limitsFor } from '../../base/quota/plans.ts';
import type { QuotaLedger } from '../../base/quota/quota.ts';
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
import { callerSlot, identifiedKey, identityOf } from './auth.ts';

/** The X-RateLimit-* values the answer carries; empty means the anonymous ones. */
export const rateLimitSlot = createSlot<RateLimitHeaders>("the answer's rate-limit values");

/** What the headers are read from: the keys, their plans and the ledger of their usage. */
export interface RateLimitSources {
  readonly keys: readonly KeyEntry[];
  readonly plans: Readonly<Record<string, Limits>>;
  readonly quota: QuotaLedger;
}

/**
 * The X-RateLimit-* values of an answer no rate-limit step decided (a refusal made before the
 * rate limit: a bad Host, an oversized body, a 401): the caller's own window, without spending a
 * request, when the request named a valid key ("Limit applying to the caller", interface:
 * Limits); else the anonymous ones.
 */
function windowOf(
  { plans, quota }: RateLimitSources,
  key: KeyEntry | null,
  now: number,
): RateLimitHeaders | Promise<RateLimitHeaders> {
  if (key === null) return anonymousRateLimit(plans, now);
  const limits = limitsFor(plans, key);
  const peek = (record: KeyUsage) => peekRateLimit(record, limits, now);
  const record = quota.read(key.id);
  return record instanceof Promise ? record.then(peek) : peek(record);
}

/**
 * The three headers of an answer given while the usage cannot be read (a replica whose shared
 * store is unreachable): the limit of the caller's binding window, Remaining 0, since nothing
 * may be spent until the store answers, and Reset at `retryAtMs`, when the client may retry.
 */
export function unreadRateLimitHeaders(
  sources: RateLimitSources,
  authorization: string | null,
  now: number,
  retryAtMs: number,
): Record<string, string> {
  const identity = identityOf(sources.keys, authorization);
  const { limit } = identity.ok
    ? peekRateLimit(emptyUsage(), limitsFor(sources.plans, identity.key), now)
    : anonymousRateLimit(sources.plans, now);
  return rateLimitHeaderRecord({ limit, remaining: 0, reset: Math.ceil(retryAtMs / 1000) });
}

/** The caller's window as the three headers, for an answer a door gives before any pipeline. */
export function callerRateLimitHeaders(
  sources: RateLimitSources,
  authorization: string | null,
  now: number,
): Record<string, string> | Promise<Record<string, string>> {
  // No pipeline ran, so no identify step: the header is identified here.
  const identity = identityOf(sources.keys, authorization);
  const window = windowOf(sources, identity.ok ? identity.key : null, now);
  return window instanceof Promise
    ? window.then(rateLimitHeaderRecord)
    : rateLimitHeaderRecord(window);
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
      if (rateLimit instanceof Promise)
        return rateLimit.then((read) => {
          writeRateLimitHeaders(answer.headers, read);
          return answer;
        });
      writeRateLimitHeaders(answer.headers, rateLimit);
      return answer;
    },
  };
}
