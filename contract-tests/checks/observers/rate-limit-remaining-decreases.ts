import { answeredBeforeSent, type Exchange } from '../../http/exchange.ts';
import { statefulObserverCheck } from '../check.ts';

/** Remaining goes down with every request the key spends. */
export const rateLimitRemainingDecreases = statefulObserverCheck({
  id: 'rateLimit.remainingDecreases',
  title: 'X-RateLimit-Remaining goes down with each request made with the key in the same window',
  source: 'Limits, X-RateLimit-Remaining "Requests remaining in the current window"',
  needs: ['rateLimits'],
  start: () => {
    let previous:
      | { limit: string; reset: string; remaining: number; exchange: Exchange }
      | undefined;
    let compared = 0;
    return {
      observe(exchange) {
        const response = exchange.response;
        if (response === undefined || !exchange.authenticated || response.status === 429) {
          previous = undefined;
          return undefined;
        }
        const limit = response.headers.get('X-RateLimit-Limit');
        const reset = response.headers.get('X-RateLimit-Reset');
        const remaining = Number(response.headers.get('X-RateLimit-Remaining') ?? Number.NaN);
        if (limit === null || reset === null || !Number.isInteger(remaining)) {
          previous = undefined;
          return undefined;
        }
        const before = previous;
        previous = { limit, reset, remaining, exchange };
        if (
          before === undefined ||
          before.limit !== limit ||
          before.reset !== reset ||
          // Answers to requests in flight together may arrive in any order (concurrent creates).
          !answeredBeforeSent(before.exchange, exchange)
        )
          return undefined;
        compared += 1;
        return remaining < before.remaining
          ? undefined
          : `X-RateLimit-Remaining stayed at ${remaining} (was ${before.remaining}) within the window ending ${reset}`;
      },
      judged: () => compared,
    };
  },
  whenUnseen: () => ({
    reason: 'no two answers in the same window to compare',
    // Any whole run sends several requests with the key back to back.
    expected: (run) => run.narrowed !== true,
  }),
});
