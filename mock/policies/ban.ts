/**
 * Temporary bans: the interface says repeated requests after a 429 "may lead to a temporary ban"
 * without saying when or for how long. The fake bans a key once it sends `threshold` requests
 * while a Retry-After it was given is still running, for `durationSeconds`.
 */
import { type Answer, errorAnswer } from '../core/answer.ts';
import type { RetryAfterFormat } from '../core/config.ts';
import { callerOf, type Step } from '../pipeline.ts';
import { type KeyUsage, peekRateLimit } from './rate-limit.ts';
import { retryAfterValue } from './retry-after.ts';

/** When a key gets banned and for how long. */
export interface BanPolicy {
  /** Refused requests sent before Retry-After elapsed that trigger a ban. */
  readonly threshold: number;
  /** Length of a ban in seconds. */
  readonly durationSeconds: number;
}

/** The fake's documented default: the 5th request that ignores Retry-After bans the key for 5 minutes. */
export const defaultBanPolicy: BanPolicy = { threshold: 5, durationSeconds: 300 };

/** Whether the key is banned at `now`; lifts an expired ban as a side effect. */
export function isBanned(usage: KeyUsage, now: number): boolean {
  if (usage.bannedUntil === 0) return false;
  if (now < usage.bannedUntil) return true;
  usage.bannedUntil = 0;
  usage.violations = 0;
  return false;
}

/**
 * Records a refused request. Returns true when this request starts a ban. A request sent after
 * Retry-After elapsed is not a violation, however many 429s came before it.
 */
export function recordRefusal(
  usage: KeyUsage,
  retryAtMs: number,
  now: number,
  policy: BanPolicy,
): boolean {
  if (now < usage.retryAt) usage.violations += 1;
  usage.retryAt = retryAtMs;
  if (usage.violations >= policy.threshold) {
    usage.bannedUntil = now + policy.durationSeconds * 1000;
    usage.retryAt = usage.bannedUntil;
    return true;
  }
  return false;
}

/** Clears the refusal count once a request is admitted again. */
export function recordAdmission(usage: KeyUsage): void {
  usage.violations = 0;
}

function banAnswer(format: RetryAfterFormat, bannedUntil: number, now: number): Answer {
  return errorAnswer('temporarily_banned', undefined, {
    'Retry-After': retryAfterValue(format, bannedUntil, now),
  });
}

/**
 * The pipeline step, in front of rate limiting: a banned key is refused until the ban ends; a
 * rate-limit refusal (the exchange's `refusedUntil`) counts towards a ban and may start one, and
 * an admitted request clears the count.
 */
export const banStep: Step = (exchange, next) => {
  const { usage, limits } = callerOf(exchange);
  const { now, state } = exchange;
  const format = state.config.retryAfterFormat;
  if (isBanned(usage, now)) {
    const peek = peekRateLimit(usage, limits, now);
    exchange.rateLimit = {
      limit: peek.limit,
      remaining: 0,
      reset: Math.ceil(usage.bannedUntil / 1000),
    };
    return banAnswer(format, usage.bannedUntil, now);
  }
  // Rate limiting decides synchronously inside next(), before any operation awaits: the count is
  // cleared at admission, as a refused request arriving meanwhile must still count.
  const rest = next();
  const refusedUntil = exchange.refusedUntil;
  if (refusedUntil === undefined) {
    recordAdmission(usage);
    return rest;
  }
  if (!recordRefusal(usage, refusedUntil, now, state.config.ban)) return rest;
  const shown = exchange.rateLimit ?? peekRateLimit(usage, limits, now);
  exchange.rateLimit = { ...shown, reset: Math.ceil(usage.bannedUntil / 1000) };
  return banAnswer(format, usage.bannedUntil, now);
};
