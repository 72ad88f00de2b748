/**
 * X-RateLimit-Remaining goes down as the key spends its window. A window that refills
 * continuously (a token bucket, GCRA, a sliding counter) may hand back a request between two
 * answers, so one answer whose Remaining did not fall proves nothing, and a client slower than
 * the refill never lowers it; but Remaining that stays put across `stallLimit` requests in a
 * row, served one after another in one window (window-drop.ts) faster than any refill could
 * hand them back (refillAtMost), is not counting them.
 */
import { answeredAtEpochMs, answeredBeforeSent, type Exchange } from '../../http/exchange.ts';
import { statefulObserverCheck } from '../check.ts';
import {
  refillBound,
  resetAhead,
  type WindowReading,
  windowReading,
  windowStep,
} from '../window-drop.ts';

/** Served requests in a row whose Remaining did not fall, at the least, before the check fails. */
const stallLimit = 3;

/**
 * The most requests a window that refills continuously could have handed back while `stuck`
 * served requests left Remaining where it was, over `elapsedMs` from the stall's first request
 * to this answer (the server may read its clock as late as it answers, which a busy machine
 * delays), and what bounds it. Two bounds, the lower wins: the window's limit over the longest
 * wait to a Reset any answer showed (refillBound), and this answer's own window: a token bucket,
 * GCRA or sliding counter hands its missing requests back at most as fast as all of them by its
 * Reset, and the Reset lies at least a second of rounding, less, after the answer. A Reset that
 * close bounds nothing.
 */
function refillAtMost(
  reading: WindowReading,
  elapsedMs: number,
  longest: number,
  answeredAtEpochMs: number,
): { most: number; why: string } {
  const limit = reading.limit ?? reading.remaining;
  const byLimit = refillBound(limit, elapsedMs, longest);
  const byLimitWhy = `its limit of ${limit} over the longest Reset seen, ${longest.toFixed(1)} s ahead: at most ${byLimit}`;
  const left = (reading.reset ?? 0) - 1 - answeredAtEpochMs / 1000;
  if (left <= 0)
    return { most: byLimit, why: `${byLimitWhy}; its Reset, a rounding away, bounds nothing` };
  const missing = Math.max(0, limit - reading.remaining);
  const byReset = Math.floor((missing * elapsedMs) / 1000 / left) + 1;
  return {
    most: Math.min(byLimit, byReset),
    why: `${byLimitWhy}; the ${missing} missing, back by its Reset at least ${left.toFixed(1)} s after the answer: at most ${byReset}`,
  };
}

/** Remaining goes down with the requests the key spends. */
export const rateLimitRemainingDecreases = statefulObserverCheck({
  id: 'rateLimit.remainingDecreases',
  title:
    'X-RateLimit-Remaining goes down as the key spends requests in one window (never stuck across 3 served in a row)',
  source: 'Limits, X-RateLimit-Remaining "Requests remaining in the current window"',
  needs: ['rateLimits'],
  start: () => {
    let previous: { reading: WindowReading; exchange: Exchange } | undefined;
    let stuck = 0;
    // When the request before the stalls was sent (target clock), and the longest wait to a
    // Reset seen.
    let stuckSince = 0;
    let longest = 0;
    let fell = 0;
    let inferred: string | undefined;
    let invisible: string | undefined;
    return {
      observe(exchange) {
        const response = exchange.response;
        const status = response?.status ?? 0;
        const reading = windowReading(response?.headers, exchange.sentAtEpochMs);
        const before = previous;
        // Only served requests surely count (a server may not count refused ones).
        if (
          !exchange.authenticated ||
          status < 200 ||
          status >= 300 ||
          reading === undefined ||
          reading.reset === undefined
        ) {
          if (exchange.authenticated) previous = undefined;
          return undefined;
        }
        previous = { reading, exchange };
        longest = Math.max(longest, resetAhead(reading));
        // Answers to requests in flight together may arrive in any order (concurrent creates).
        if (before === undefined || !answeredBeforeSent(before.exchange, exchange)) {
          stuck = 0;
          return undefined;
        }
        const step = windowStep(before.reading, reading);
        if (step.kind === 'not-comparable') {
          stuck = 0;
          invisible ??= `no two answers in one window to compare: ${step.why}`;
          return undefined;
        }
        if (reading.remaining < before.reading.remaining) {
          fell += 1;
          stuck = 0;
          inferred = `${fell} served request(s) with the key lowered it; last seen: ${step.inferred}`;
          return undefined;
        }
        if (before.reading.remaining === 0) return undefined;
        if (stuck === 0) stuckSince = before.exchange.sentAtEpochMs;
        stuck += 1;
        if (stuck < stallLimit) return undefined;
        const answered = answeredAtEpochMs(exchange);
        const elapsed = answered - stuckSince;
        const refill = refillAtMost(reading, elapsed, longest, answered);
        if (stuck <= refill.most) return undefined;
        fell += 1;
        return `X-RateLimit-Remaining stayed at ${reading.remaining} across ${stuck} requests with the key served one after another within ${Math.round(elapsed)} ms, from the first one's request to the last one's answer (${step.inferred}): no window that refills continuously hands back that many (${refill.why})`;
      },
      judged: () => fell,
      note: () => inferred,
      unseen: () => invisible,
    };
  },
  whenUnseen: () => ({
    reason: 'no two answers in the same window to compare',
    // Any whole run sends several requests with the key back to back.
    expected: (run) => run.narrowed !== true,
  }),
});
