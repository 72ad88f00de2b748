/**
 * The one Retry-After formatter: rate-limit refusals, bans, forced and chaos 429/503 answers all
 * say when to come back through it, so `--retry-after http-date` holds for every one of them.
 *
 * Both formats round up: a client that waits exactly what the header says is never let in before
 * the moment the fake admits it again. An HTTP-date is written on real time (`Date.now()`), as the
 * `Date` header a server writes and as every client computes `date - Date.now()` (ky's
 * `calculateRetryTimingDelay`, got's `Date.parse(date) - Date.now()`, axios-retry's
 * `retryAfter()`), whatever the fake's virtual clock shows: a frozen or shifted clock moves the
 * fake's windows, never the wall clock a client sleeps on.
 */
/** How `Retry-After` is written: delta-seconds (`"30"`) or an HTTP-date. */
export type RetryAfterFormat = 'seconds' | 'http-date';

/**
 * The Retry-After value for a client that may retry at `retryAtMs` on the fake's clock, which
 * reads `now`: whole seconds rounded up, at least `minSeconds` (1 for refusals that last until a
 * window or a ban ends; 0 for a forced answer that asks for no wait).
 */
export function retryAfterValue(
  format: RetryAfterFormat,
  retryAtMs: number,
  now: number,
  minSeconds = 1,
): string {
  const delayMs = Math.max(minSeconds * 1000, retryAtMs - now);
  if (format === 'seconds') return String(Math.ceil(delayMs / 1000));
  return new Date(Math.ceil((Date.now() + delayMs) / 1000) * 1000).toUTCString();
}
