/**
 * Readings of the key's window, and what two of them show, from X-RateLimit-Remaining and
 * X-RateLimit-Reset together. The interface says neither how a window is counted nor whether its
 * Reset stays put ("Unix timestamp at which the limit resets"): a fixed window keeps one Reset
 * until it turns over; a sliding log keeps it until its oldest request leaves; a sliding counter
 * keeps the current sub-window's end while the previous one fades; a token bucket or GCRA moves
 * Reset forward with every request. What every one of them shares is that time only gives back:
 * between two answers Remaining rises only by a refill, and falls only by requests counted. So
 * "one window" is inferred from Remaining not rising under the same Limit, with Reset unchanged
 * or moved forward no further than a moving window moves in the time between; in one window a
 * fall larger than the key's own requests is a violation whatever the algorithm.
 */
import { integerHeader } from '../http/pacer.ts';

/** Where an answer to the key stands in its window: X-RateLimit-Remaining, -Limit and -Reset. */
export interface WindowReading {
  readonly remaining: number;
  readonly limit: number | undefined;
  readonly reset: number | undefined;
  /** When the request was sent, in epoch ms on the target's clock (how far a window may move). */
  readonly at?: number;
}

/** The reading an answer's headers give, or undefined without an integer X-RateLimit-Remaining. */
export function windowReading(
  headers: Headers | undefined,
  at?: number,
): WindowReading | undefined {
  const remaining = integerHeader(headers, 'X-RateLimit-Remaining');
  if (remaining === undefined) return undefined;
  return {
    remaining,
    limit: integerHeader(headers, 'X-RateLimit-Limit'),
    reset: integerHeader(headers, 'X-RateLimit-Reset'),
    ...(at === undefined ? {} : { at }),
  };
}

/** How a later reading relates to an earlier one. */
export type WindowStep =
  /** Remaining did not rise under the same Limit: no refill shows, one window. */
  | { readonly kind: 'one-window'; readonly inferred: string }
  /** The two readings cannot be compared: another Limit, a refill, a Reset moved back. */
  | { readonly kind: 'not-comparable'; readonly why: string };

/**
 * The most a moving window's Reset moves between two readings `own` requests apart: the time
 * between them, and a second per request (a token bucket's or GCRA's step per request is the
 * window over the limit, a second for 60 a minute), plus a second of rounding. Further is a
 * window that turned over (a sliding counter's next sub-window, which weighs the last one in).
 */
function movingStepSeconds(before: WindowReading, after: WindowReading, own: number): number {
  const elapsed =
    before.at === undefined || after.at === undefined ? 0 : Math.max(0, after.at - before.at);
  return Math.ceil(elapsed / 1000) + own + 1;
}

/**
 * What `after` shows about the window `before` was read in, `own` requests with the key later:
 * one window (with the words for how that was inferred), or why the two cannot be compared.
 * @example windowStep({ remaining: 57, limit: 60, reset: 100 }, { remaining: 56, limit: 60, reset: 100 })
 */
export function windowStep(before: WindowReading, after: WindowReading, own = 1): WindowStep {
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
  const shift =
    before.reset === undefined || after.reset === undefined ? -1 : after.reset - before.reset;
  if (shift > 0 && shift <= movingStepSeconds(before, after, own))
    return {
      kind: 'one-window',
      inferred: `one moving window: X-RateLimit-Reset moved forward ${shift} s with the requests, ${remaining} (no refill)`,
    };
  return {
    kind: 'not-comparable',
    why: `X-RateLimit-Reset went from ${before.reset ?? '(none)'} to ${after.reset ?? '(none)'}${shift > 0 ? ', further than the requests in between move a window: it turned over' : ''}`,
  };
}

/** How two readings of one key's window judge the requests sent between them (judgeWindowDrop). */
export type WindowDrop =
  /** Remaining fell by more than the key's own requests within one window. */
  | { readonly kind: 'drop'; readonly problem: string; readonly inferred: string }
  /** It fell by no more: `inferred` says how one window was read. */
  | { readonly kind: 'held'; readonly inferred: string }
  /** No larger fall could have shown between the two readings, and why. */
  | { readonly kind: 'hidden'; readonly why: string };

/**
 * Judges the fall of the key's Remaining between two answers, across the `own` requests the key
 * itself sent and `others` (in words) sent in between. Within one window a refill only raises
 * Remaining, so no algorithm explains a fall larger than `own`: a drop. A window that turned over
 * may start lower (a sliding counter weighs the last one in), and a `before` with no room beyond
 * the key's own requests cannot show more: hidden, not judged.
 */
export function judgeWindowDrop(
  before: WindowReading,
  after: WindowReading,
  others: string,
  own = 1,
): WindowDrop {
  const step = windowStep(before, after, own);
  if (step.kind === 'not-comparable') return { kind: 'hidden', why: step.why };
  if (before.remaining <= own)
    return {
      kind: 'hidden',
      why: `X-RateLimit-Remaining was ${before.remaining}: no room to show requests beyond the key's own`,
    };
  const drop = before.remaining - after.remaining;
  return drop > own
    ? {
        kind: 'drop',
        problem: `X-RateLimit-Remaining of the key fell from ${before.remaining} to ${after.remaining} across ${own === 1 ? 'one request' : `${own} requests`} with the key and ${others} in between: they drew from the key's window (if no other client used the key meanwhile)`,
        inferred: step.inferred,
      }
    : { kind: 'held', inferred: step.inferred };
}

/**
 * The most requests a window that refills continuously (a token bucket, GCRA, a sliding counter)
 * could have handed back over `elapsedMs`: its limit per window, the window taken as the longest
 * wait to a Reset any answer showed (at least a second, so a run that saw only near Resets
 * allows much), plus one for rounding.
 * @example refillBound(60, 500, 60) // 1: half a second of a 60-a-minute window
 */
export function refillBound(limit: number, elapsedMs: number, longestResetSeconds: number): number {
  return Math.floor(((elapsedMs / 1000) * limit) / Math.max(1, longestResetSeconds)) + 1;
}

/** How far ahead of its request a reading's Reset lies, in seconds (0 when unknown). */
export function resetAhead(reading: WindowReading): number {
  return reading.reset === undefined || reading.at === undefined
    ? 0
    : reading.reset - reading.at / 1000;
}
