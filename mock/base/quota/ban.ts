/**
 * Temporary bans: the interface says repeated requests after a 429 "may lead to a temporary ban"
 * without saying when or for how long. The fake bans a key once it sends `threshold` requests
 * while a Retry-After it was given is still running, for `durationSeconds`.
 */
import type { KeyUsage } from './rate-limit.ts';

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
