/** How two readings of the key's X-RateLimit-Remaining show others' requests drawing from it. */

/**
 * The problem when the key's Remaining fell by more than the one request the key itself sent
 * between two answers in one window, with `others` (in words) sent in between; else undefined.
 * A sliding window may refill in between (a smaller drop); it never takes more than the one.
 */
export function windowDropProblem(
  before: number,
  after: number,
  others: string,
): string | undefined {
  return before - after > 1
    ? `X-RateLimit-Remaining of the key fell from ${before} to ${after} across one request with the key and ${others} in between: they drew from the key's window (if no other client used the key meanwhile)`
    : undefined;
}
