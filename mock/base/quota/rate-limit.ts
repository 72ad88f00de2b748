/**
 * Per-key rate limiting over two fixed windows, a minute and a UTC day, both aligned to the
 * epoch so `X-RateLimit-Reset` is predictable. A request is admitted only when both windows have
 * room, and then counts in both. Plain functions over a usage record and a time: no I/O, no clock.
 */
import { isCount } from '../contract/lossless-json.ts';
import type { Limits } from './plans.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** One fixed window's count. */
interface WindowUsage {
  start: number;
  count: number;
}

/** What the fake remembers about one key's traffic. */
export interface KeyUsage {
  minute: WindowUsage;
  day: WindowUsage;
  /** Requests refused (429) since the key last got through; drives the ban policy. */
  violations: number;
  /** Epoch ms before which the last 429 told the client not to retry. */
  retryAt: number;
  /** Epoch ms until which the key is banned; 0 when not banned. */
  bannedUntil: number;
}

/** Why a saved value is not a usage record (see KeyUsage), or `undefined` when it is one. */
export function usageProblem(value: unknown): string | undefined {
  const record = value as Partial<Record<keyof KeyUsage, unknown>> | null;
  const isWindow = (window: unknown) => {
    const { start, count } = (window ?? {}) as Partial<Record<keyof WindowUsage, unknown>>;
    return isCount(start) && isCount(count);
  };
  if (record === null || typeof record !== 'object') return 'is not an object';
  if (!isWindow(record.minute) || !isWindow(record.day))
    return 'has no minute and day windows {"start": ms, "count": n}';
  if (!isCount(record.violations) || !isCount(record.retryAt) || !isCount(record.bannedUntil))
    return 'has no violations, retryAt and bannedUntil (whole numbers from 0)';
  return undefined;
}

/** The values of the three `X-RateLimit-*` headers. */
export interface RateLimitHeaders {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds at which the reported window resets. */
  readonly reset: number;
}

/** The outcome of asking to spend one request. */
export type Admission =
  | { readonly admitted: true; readonly headers: RateLimitHeaders }
  | { readonly admitted: false; readonly headers: RateLimitHeaders; readonly retryAtMs: number };

/** A fresh usage record, as for a key never seen. */
export function emptyUsage(): KeyUsage {
  return {
    minute: { start: 0, count: 0 },
    day: { start: 0, count: 0 },
    violations: 0,
    retryAt: 0,
    bannedUntil: 0,
  };
}

function roll(window: WindowUsage, lengthMs: number, now: number): void {
  const start = Math.floor(now / lengthMs) * lengthMs;
  if (window.start !== start) {
    window.start = start;
    window.count = 0;
  }
}

interface WindowView {
  readonly limit: number;
  readonly remaining: number;
  readonly resetMs: number;
}

function views(usage: KeyUsage, limits: Limits): readonly [WindowView, WindowView] {
  return [
    {
      limit: limits.perMinute,
      remaining: Math.max(0, limits.perMinute - usage.minute.count),
      resetMs: usage.minute.start + MINUTE_MS,
    },
    {
      limit: limits.perDay,
      remaining: Math.max(0, limits.perDay - usage.day.count),
      resetMs: usage.day.start + DAY_MS,
    },
  ];
}

/** The window to report: the one with fewest requests left; on a tie, the minute window. */
function binding([minute, day]: readonly [WindowView, WindowView]): WindowView {
  return day.remaining < minute.remaining ? day : minute;
}

function toHeaders(view: WindowView): RateLimitHeaders {
  return { limit: view.limit, remaining: view.remaining, reset: Math.ceil(view.resetMs / 1000) };
}

/** Reports the headers for a key without spending a request. */
export function peekRateLimit(usage: KeyUsage, limits: Limits, now: number): RateLimitHeaders {
  roll(usage.minute, MINUTE_MS, now);
  roll(usage.day, DAY_MS, now);
  return toHeaders(binding(views(usage, limits)));
}

/**
 * Spends one request if both windows have room. Synchronous on purpose: check and count happen
 * in one turn of the event loop, so concurrent requests can never be admitted past the limit.
 */
export function admitRequest(usage: KeyUsage, limits: Limits, now: number): Admission {
  roll(usage.minute, MINUTE_MS, now);
  roll(usage.day, DAY_MS, now);
  const [minute, day] = views(usage, limits);
  if (minute.remaining === 0 || day.remaining === 0) {
    // When both are spent the client must wait for the later reset.
    const worst =
      minute.remaining === 0 && (day.remaining !== 0 || minute.resetMs >= day.resetMs)
        ? minute
        : day;
    return { admitted: false, headers: toHeaders(worst), retryAtMs: worst.resetMs };
  }
  usage.minute.count += 1;
  usage.day.count += 1;
  return { admitted: true, headers: toHeaders(binding(views(usage, limits))) };
}

/** The usage record of a key id, created empty on first use. */
export function usageOf(usage: Map<string, KeyUsage>, keyId: string): KeyUsage {
  let record = usage.get(keyId);
  if (record === undefined) {
    record = emptyUsage();
    usage.set(keyId, record);
  }
  return record;
}

/** The Free plan's limits (README); a keys file without one shows its smallest plan's instead. */
function anonymousLimits(plans: Readonly<Record<string, Limits>>): Limits {
  const all = Object.values(plans);
  return plans.free ?? all.reduce((a, b) => (b.perMinute < a.perMinute ? b : a));
}

/** The headers an unauthenticated caller sees: the anonymous limits, never spent. */
export function anonymousRateLimit(
  plans: Readonly<Record<string, Limits>>,
  now: number,
): RateLimitHeaders {
  return peekRateLimit(emptyUsage(), anonymousLimits(plans), now);
}

/** The three X-RateLimit-* headers as a record. */
export function rateLimitHeaderRecord(rateLimit: RateLimitHeaders): Record<string, string> {
  return writeRateLimitHeaders({}, rateLimit);
}

/** Writes the three X-RateLimit-* headers into `headers` (an answer's own), and returns it. */
export function writeRateLimitHeaders(
  headers: Record<string, string>,
  rateLimit: RateLimitHeaders,
): Record<string, string> {
  headers['X-RateLimit-Limit'] = String(rateLimit.limit);
  headers['X-RateLimit-Remaining'] = String(rateLimit.remaining);
  headers['X-RateLimit-Reset'] = String(rateLimit.reset);
  return headers;
}
