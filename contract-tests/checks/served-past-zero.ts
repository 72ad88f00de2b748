/**
 * The judge of requests served although the answer before each said X-RateLimit-Remaining: 0.
 * A window that refills continuously (token bucket, GCRA, sliding counter) hands back requests
 * at its rate, never one per request sent faster than that (refillBound), and from the decision
 * that left it at 0: as early as the request that was answered 0 was sent. So a run of requests
 * served past 0 is measured from that request's send to the latest answer, the latest the server
 * may have decided.
 */
import { refillBound } from './window-drop.ts';

/** One answer served (200) while spending the window, as the judge reads it. */
export interface ServedAnswer {
  /** X-RateLimit-Remaining of the answer before this one. */
  readonly remainingBefore: number;
  /** X-RateLimit-Remaining of this answer (0 when it has none). */
  readonly remaining: number;
  /** X-RateLimit-Limit of this answer (0 when it has none). */
  readonly limit: number;
  /** The longest wait to a Reset any answer showed so far, in seconds. */
  readonly longestResetSeconds: number;
  readonly sentAtMs: number;
  readonly answeredAtMs: number;
}

/**
 * A judge fed every served answer in order: each call says, when the run of answers served past
 * 0 ending at it is more than any refill hands back, why, quoting the numbers it judged.
 */
export function servedPastZeroJudge(): (answer: ServedAnswer) => string | undefined {
  let served = 0;
  let since = 0;
  let previousSentAt: number | undefined;
  return (answer) => {
    if (answer.remainingBefore === 0 && answer.remaining === 0) {
      if (served === 0) since = previousSentAt ?? answer.sentAtMs;
      served += 1;
    } else served = 0;
    previousSentAt = answer.sentAtMs;
    const elapsed = answer.answeredAtMs - since;
    if (served < 2 || served <= refillBound(answer.limit, elapsed, answer.longestResetSeconds))
      return undefined;
    return `served (200) ${served} times in a row within ${Math.round(elapsed)} ms although each previous answer said X-RateLimit-Remaining: 0 (no refill of ${answer.limit} a window hands back that many)`;
  };
}
