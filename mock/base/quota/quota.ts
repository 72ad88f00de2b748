/**
 * The quota decision of one request with a valid key, in one place: a banned key is refused
 * until its ban ends; else the request is admitted and counted in both windows, or refused with
 * 429, and a refusal sent while an earlier Retry-After still ran counts towards a ban that may
 * start now. Plain functions over a usage record and a time, as ban.ts and rate-limit.ts are.
 */
import { type BanPolicy, isBanned, recordAdmission, recordRefusal } from './ban.ts';
import type { Limits } from './plans.ts';
import {
  admitRequest,
  type KeyUsage,
  peekRateLimit,
  type RateLimitHeaders,
  usageOf,
} from './rate-limit.ts';

/**
 * What the quota made of one request, the X-RateLimit-* values its answer carries, and the key's
 * count of requests sent during a Retry-After once this one was counted (`violations`).
 */
export type QuotaDecision = (
  | { readonly verdict: 'admitted'; readonly rateLimit: RateLimitHeaders }
  | {
      /** Refused 429: a window is spent. */
      readonly verdict: 'limited';
      readonly rateLimit: RateLimitHeaders;
      /** When the client may retry, on the fake's clock. */
      readonly retryAtMs: number;
    }
  | {
      /** Refused: the key is banned. */
      readonly verdict: 'banned';
      readonly rateLimit: RateLimitHeaders;
      /** When the ban ends, on the fake's clock. */
      readonly retryAtMs: number;
      /** Whether this request started the ban (it would have been a 429). */
      readonly started: boolean;
    }
) & { readonly violations: number };

/**
 * Decides one request of a key whose usage is `usage`, changing it as the request counts.
 * Synchronous: check and count happen in one turn, so concurrent requests are never admitted
 * past the limit.
 */
export function decideQuota(
  usage: KeyUsage,
  limits: Limits,
  now: number,
  policy: BanPolicy,
): QuotaDecision {
  if (isBanned(usage, now)) {
    const { limit } = peekRateLimit(usage, limits, now);
    const reset = Math.ceil(usage.bannedUntil / 1000);
    return {
      verdict: 'banned',
      rateLimit: { limit, remaining: 0, reset },
      retryAtMs: usage.bannedUntil,
      started: false,
      violations: usage.violations,
    };
  }
  const admission = admitRequest(usage, limits, now);
  if (admission.admitted) {
    recordAdmission(usage);
    return { verdict: 'admitted', rateLimit: admission.headers, violations: usage.violations };
  }
  if (!recordRefusal(usage, admission.retryAtMs, now, policy))
    return {
      verdict: 'limited',
      rateLimit: admission.headers,
      retryAtMs: admission.retryAtMs,
      violations: usage.violations,
    };
  return {
    verdict: 'banned',
    rateLimit: { ...admission.headers, reset: Math.ceil(usage.bannedUntil / 1000) },
    retryAtMs: usage.bannedUntil,
    started: true,
    violations: usage.violations,
  };
}

/**
 * Every key's quota, where the quota step reads and changes it: one call decides a request. A
 * call may answer later (an engine shared by several processes keeps it); the fake's own ledger
 * answers at once.
 */
export interface QuotaLedger {
  /** Decides one request of the key `keyId` (decideQuota), counting it if admitted. */
  decide(
    keyId: string,
    limits: Limits,
    now: number,
    policy: BanPolicy,
  ): QuotaDecision | Promise<QuotaDecision>;
  /** Forgets every key's usage (a control reset). */
  clear(): void | Promise<void>;
  /**
   * The key's usage record, created empty on first use. The fake's own ledger answers the record
   * the next decision changes, so a step that reads it after the decision sees the count.
   */
  read(keyId: string): KeyUsage | Promise<KeyUsage>;
  /** Replaces the key's usage record (a provider state). */
  write(keyId: string, usage: KeyUsage): void | Promise<void>;
}

/** A ledger in the fake's own memory: every call answers at once. */
export interface OwnLedger extends QuotaLedger {
  decide(...args: Parameters<QuotaLedger['decide']>): QuotaDecision;
  clear(): void;
  read(keyId: string): KeyUsage;
  write(keyId: string, usage: KeyUsage): void;
}

/** The ledger over the fake's own usage records, by key id. */
export function inMemoryLedger(usage: Map<string, KeyUsage>): OwnLedger {
  return {
    decide: (keyId, limits, now, policy) => decideQuota(usageOf(usage, keyId), limits, now, policy),
    clear: () => usage.clear(),
    read: (keyId) => usageOf(usage, keyId),
    write: (keyId, record) => {
      usage.set(keyId, record);
    },
  };
}
