/**
 * X-RateLimit-Remaining goes down as the key spends its window. A window that refills
 * continuously (a token bucket, GCRA, a sliding counter) may hand back a request between two
 * answers, so one answer whose Remaining did not fall proves nothing, and a client slower than
 * the refill never lowers it; but Remaining that stays put across `stallLimit` requests in a
 * row, served one after another in one window (window-drop.ts) faster than any refill could
 * hand them back (window-drop.ts refillBound), is not counting them.
 */
import { answeredBeforeSent, type Exchange } from '../../http/exchange.ts';
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
 * Whether a continuous refill explains `stuck` served requests without a fall over `elapsed` ms:
 * it could hand that many back (refillBound), and the window is refilling at all: its Reset lies
 * no further ahead than the missing requests take to come back at that rate, twice over (a
 * sliding counter regains them over two windows), plus a second of rounding. A fixed window whose
 * Reset lies far ahead hands nothing back before it.
 */
function refillExplains(
  reading: WindowReading,
  stuck: number,
  elapsed: number,
  longest: number,
): boolean {
  const limit = reading.limit ?? reading.remaining;
  if (stuck > refillBound(limit, elapsed, longest)) return false;
  const missing = Math.max(1, limit - reading.remaining);
  return resetAhead(reading) <= (2 * missing * Math.max(1, longest)) / Math.max(1, limit) + 1;
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
    // When the run of stalls began (target clock), and the longest wait to a Reset seen.
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
        if (stuck === 0) stuckSince = before.reading.at ?? 0;
        stuck += 1;
        const elapsed = (reading.at ?? 0) - stuckSince;
        const limit = reading.limit ?? reading.remaining;
        if (stuck < stallLimit || refillExplains(reading, stuck, elapsed, longest))
          return undefined;
        fell += 1;
        return `X-RateLimit-Remaining stayed at ${reading.remaining} across ${stuck} requests with the key served one after another in ${Math.round(elapsed)} ms (${step.inferred}): no refill of ${limit} a window (the longest Reset seen was ${Math.round(longest)} s ahead) hands back that many`;
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
