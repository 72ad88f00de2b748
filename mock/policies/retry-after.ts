/**
 * The one Retry-After formatter: rate-limit refusals, bans and forced 429/503 answers all say
 * when to come back through it, so `--retry-after http-date` holds for every one of them.
 */
import type { RetryAfterFormat } from '../core/config.ts';

/** The Retry-After value for a client that may retry at `retryAtMs`: at least one second away. */
export function retryAfterValue(format: RetryAfterFormat, retryAtMs: number, now: number): string {
  const seconds = Math.max(1, Math.ceil((retryAtMs - now) / 1000));
  if (format === 'seconds') return String(seconds);
  return new Date(now + seconds * 1000).toUTCString();
}
