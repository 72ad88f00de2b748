/**
 * Readings of the key's window, and what two of them show, from X-RateLimit-Remaining and
 * X-RateLimit-Reset together. The interface says neither how a window is counted nor whether its
 * Reset stays put ("Unix timestamp at which the limit resets"): a fixed window keeps one Reset
 * until it turns over; a sliding log keeps it until its oldest request leaves; a sliding counter
 * keeps the current sub-window's end while the previous one fades; a token bucket or GCRA moves
 * Reset forward with every request. What every one of them shares is that time only gives back:
 * between two answers Remaining rises only by a refill, and falls only by requests counted. So
 * "one window" is inferred from Remaining not rising under the same Limit (Reset unchanged, or
 * moved forward as a moving window moves), and a fall larger than the key's own requests is a
 * violation whatever the algorithm.
 */
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

/** How a later reading relates to an earlier one. */
export type WindowStep =
  /** Remaining did not rise under the same Limit: no refill shows, one window. */
  | { readonly kind: 'one-window'; readonly inferred: string }
  /** The two readings cannot be compared: another Limit, a refill, a Reset moved back. */
  | { readonly kind: 'not-comparable'; readonly why: string };

/**
 * What `after` shows about the window `before` was read in: one window (with the words for how
 * that was inferred), or why the two cannot be compared.
 * @example windowStep({ remaining: 57, limit: 60, reset: 100 }, { remaining: 56, limit: 60, reset: 100 })
 */
export function windowStep(before: WindowReading, after: WindowReading): WindowStep {
  if (before.limit !== after.limit)
    return {
      kind: 'not-comparable',
      why: `X-RateLimit-Limit changed from ${before.limit ?? '(none)'} to ${after.limit ?? '(none)'} (another window)`,
    };
  const remaining = `X-RateLimit-Remaining ${before.remaining} → ${after.remaining}`;
  if (after.remaining > before.remaining)
    return {
      kind: 'not-comparable',
      why: `${remaining}: the window refilled in between (X-RateLimit-Reset ${before.reset ?? '?'} → ${after.reset ?? '?'})`,
    };
  if (before.reset === after.reset)
    return {
      kind: 'one-window',
      inferred: `one window: X-RateLimit-Reset stayed ${after.reset ?? '(none)'}, ${remaining}`,
    };
  if (before.reset !== undefined && after.reset !== undefined && after.reset > before.reset)
    return {
      kind: 'one-window',
      inferred: `one moving window: X-RateLimit-Reset moved forward ${after.reset - before.reset} s with the requests, ${remaining} (no refill)`,
    };
  return {
    kind: 'not-comparable',
    why: `X-RateLimit-Reset went from ${before.reset ?? '(none)'} to ${after.reset ?? '(none)'}`,
  };
}

/**
 * The problem when the key's Remaining fell by more than the `own` requests the key itself sent
 * between two answers (same Limit), with `others` (in words) sent in between; else undefined.
 * A refill only raises Remaining, so no window algorithm explains a larger fall.
 */
export function windowDropProblem(
  before: WindowReading,
  after: WindowReading,
  others: string,
  own = 1,
): string | undefined {
  if (before.limit !== after.limit) return undefined;
  const drop = before.remaining - after.remaining;
  return drop > own
    ? `X-RateLimit-Remaining of the key fell from ${before.remaining} to ${after.remaining} across ${own === 1 ? 'one request' : `${own} requests`} with the key and ${others} in between: they drew from the key's window (if no other client used the key meanwhile)`
    : undefined;
}

/**
 * Whether a fall larger than `own` could have shown between the two readings: one window
 * inferred, and room in `before` for more than the key's own requests. Undefined when it could,
 * else why not.
 */
export function dropNotVisible(
  before: WindowReading,
  after: WindowReading,
  own = 1,
): string | undefined {
  const step = windowStep(before, after);
  if (step.kind === 'not-comparable') return step.why;
  if (before.remaining <= own)
    return `X-RateLimit-Remaining was ${before.remaining}: no room to show requests beyond the key's own`;
  return undefined;
}
