/** Readings of the key's window, and how two of them show others' requests drawing from it. */
import { integerHeader } from '../http/pacer.ts';

/** Where an answer to the key stands in its window: X-RateLimit-Remaining, -Limit and -Reset. */
export interface WindowReading {
  readonly remaining: number;
  readonly limit: number | undefined;
  readonly reset: number | undefined;
}

/** The reading an answer's headers give, or undefined without an integer X-RateLimit-Remaining. */
export function windowReading(headers: Headers | undefined): WindowReading | undefined {
  const remaining = integerHeader(headers, 'X-RateLimit-Remaining');
  if (remaining === undefined) return undefined;
  return {
    remaining,
    limit: integerHeader(headers, 'X-RateLimit-Limit'),
    reset: integerHeader(headers, 'X-RateLimit-Reset'),
  };
}

/** Whether two readings are of one window: the same Limit and Reset. */
export function sameWindow(a: WindowReading, b: WindowReading): boolean {
  return a.reset === b.reset && a.limit === b.limit;
}

/**
 * The problem when the key's Remaining fell by more than the one request the key itself sent
 * between two answers in one window, with `others` (in words) sent in between; else undefined.
 * A sliding window may refill in between (a smaller drop); it never takes more than the one.
 */
export function windowDropProblem(
  before: WindowReading,
  after: WindowReading,
  others: string,
): string | undefined {
  return before.remaining - after.remaining > 1
    ? `X-RateLimit-Remaining of the key fell from ${before.remaining} to ${after.remaining} across one request with the key and ${others} in between: they drew from the key's window (if no other client used the key meanwhile)`
    : undefined;
}
