/**
 * X-RateLimit-Remaining goes down as the key spends its window. A window that refills
 * continuously (a token bucket, GCRA, a sliding counter) may hand back a request between two
 * answers, so one answer whose Remaining did not fall proves nothing; but a refill of one
 * request per gap cannot last: Remaining that stays put across `stallLimit` requests in a row,
 * served one after another in one window (window-drop.ts), is not counting them.
 */
import { answeredBeforeSent, type Exchange } from '../../http/exchange.ts';
import { statefulObserverCheck } from '../check.ts';
import { type WindowReading, windowReading, windowStep } from '../window-drop.ts';

/**
 * Served requests in a row whose Remaining did not fall before the check fails: after one such
 * request a continuous refill leaves less than its rate times one gap, so two in a row would
 * need a refill of a whole request per gap, three of two.
 */
const stallLimit = 3;

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
        stuck += 1;
        if (stuck < stallLimit) return undefined;
        fell += 1;
        return `X-RateLimit-Remaining stayed at ${reading.remaining} across ${stuck} requests with the key served one after another (${step.inferred}): a refill cannot hand back a request per request`;
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
