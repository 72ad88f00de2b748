/** The ban step of the pipeline, over the ban rules of ban.ts. */
import { callerOf, type Step } from '../pipeline.ts';
import { isBanned, recordAdmission, recordRefusal } from './ban.ts';
import { peekRateLimit } from './rate-limit.ts';
import { refuse } from './refusal.ts';

/**
 * The pipeline step, in front of rate limiting: a banned key is refused until the ban ends; a
 * rate-limit refusal (the exchange's `refusedUntil`) counts towards a ban and may start one, and
 * an admitted request clears the count.
 */
export const banStep: Step = (exchange, next) => {
  const { usage, limits } = callerOf(exchange);
  const { now, state } = exchange;
  if (isBanned(usage, now)) {
    const peek = peekRateLimit(usage, limits, now);
    return refuse(exchange, 'temporarily_banned', {
      rateLimit: { limit: peek.limit, remaining: 0, reset: Math.ceil(usage.bannedUntil / 1000) },
      retryAtMs: usage.bannedUntil,
    });
  }
  // Rate limiting decides synchronously inside next(), before any operation awaits: the count is
  // cleared at admission, as a refused request arriving meanwhile must still count.
  const rest = next();
  const refusedUntil = exchange.refusedUntil;
  if (refusedUntil === undefined) {
    recordAdmission(usage);
    return rest;
  }
  if (!recordRefusal(usage, refusedUntil, now, state.config.ban)) return rest;
  const shown = exchange.rateLimit ?? peekRateLimit(usage, limits, now);
  return refuse(exchange, 'temporarily_banned', {
    rateLimit: { ...shown, reset: Math.ceil(usage.bannedUntil / 1000) },
    retryAtMs: usage.bannedUntil,
  });
};
