/**
 * Requests without a valid key do not draw from the key's window: X-RateLimit-Remaining is
 * "requests remaining in the current window" of "the limit applying to the caller" (Limits, rate
 * limit headers), and a caller without a valid key is not the key. A limiter keyed by client
 * address (express-rate-limit's default keyGenerator, run before authentication) counts them.
 * An observer, so it costs nothing: the auth checks run right after the preflight, after the
 * listings and after the gets (priorities in check.ts), so in any whole run their requests fill
 * three gaps between answers to the key, and a window turning over in one gap leaves two.
 * Whatever the window algorithm (window-drop.ts), Remaining falls by exactly the key's one request
 * across such a gap; a gap counts as evidence only when a larger fall could have shown (one
 * window, room in Remaining).
 */
import { secondKeyPlaceholder } from '../../http/exchange.ts';
import { statefulObserverCheck } from '../check.ts';
import { judgeWindowDrop, type WindowReading, windowReading } from '../window-drop.ts';

/** An answer to the key, as a point in its window. */
interface Reading extends WindowReading {
  readonly answeredAt: number;
}

/** Judges each gap between two answers to the key that only keyless requests filled. */
export const rateLimitOthersNotCounted = statefulObserverCheck({
  id: 'rateLimit.othersNotCounted',
  title:
    "requests without a key or with an invalid one do not draw from the key's window (X-RateLimit-Remaining before and after)",
  source:
    'Limits, rate limit headers: X-RateLimit-Limit "limit applying to the caller", X-RateLimit-Remaining "requests remaining in the current window"',
  needs: ['semantics', 'rateLimits'],
  start: () => {
    let last: Reading | undefined;
    let none = 0;
    let invalid = 0;
    // The gap holds something else (the second key, a request in flight over a reading).
    let mixed = false;
    let judged = 0;
    let inferred: string | undefined;
    let invisible: string | undefined;
    return {
      observe(exchange) {
        if (!exchange.authenticated) {
          const { auth } = exchange.spec;
          if (auth !== 'none' && auth !== 'key' && auth.header.includes(secondKeyPlaceholder))
            mixed = true;
          else if (auth === 'none') none += 1;
          else invalid += 1;
          if (last !== undefined && exchange.sentAt < last.answeredAt) mixed = true;
          return undefined;
        }
        const found = windowReading(exchange.response?.headers, exchange.sentAtEpochMs);
        const current =
          found === undefined ? undefined : { ...found, answeredAt: exchange.answeredAt };
        let problem: string | undefined;
        if (
          last !== undefined &&
          current !== undefined &&
          !mixed &&
          none + invalid > 0 &&
          exchange.sentAt >= last.answeredAt
        ) {
          const others = `${none} without a key and ${invalid} with an invalid one`;
          const drop = judgeWindowDrop(last, current, others);
          if (drop.kind === 'hidden') invisible = `no gap could show others' requests: ${drop.why}`;
          else {
            judged += 1;
            inferred = `${drop.inferred} across ${others} and one request with the key`;
            if (drop.kind === 'drop') problem = drop.problem;
          }
        }
        last = current;
        none = 0;
        invalid = 0;
        mixed = false;
        return problem;
      },
      judged: () => judged,
      note: () => inferred,
      unseen: () => invisible,
    };
  },
  whenUnseen: () => ({
    reason:
      'no request without a valid key came between two answers to the key (the auth checks send them)',
    expected: (run) => run.narrowed !== true,
  }),
});
