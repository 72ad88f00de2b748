/** The ban step of the pipeline, over the ban rules of ban.ts. */
import type { Step } from '../core/pipeline.ts';
import { callerSlot } from './auth.ts';
import { type BanPolicy, isBanned, recordAdmission, recordRefusal } from './ban.ts';
import { peekRateLimit } from './rate-limit.ts';
import { refusedUntilSlot } from './rate-limit-step.ts';
import { type Refuse, rateLimitSlot } from './refusal.ts';

/**
 * The pipeline step, in front of rate limiting: a banned key is refused until the ban ends; a
 * rate-limit refusal (`refusedUntilSlot`) counts towards a ban and may start one, and an admitted
 * request clears the count.
 */
export function banStep({
  policy,
  refuse,
}: {
  readonly policy: BanPolicy;
  readonly refuse: Refuse;
}): Step {
  return (context, next) => {
    const { usage, limits } = context.need(callerSlot);
    const { now } = context;
    if (isBanned(usage, now)) {
      const peek = peekRateLimit(usage, limits, now);
      return refuse(context, 'temporarily_banned', {
        rateLimit: { limit: peek.limit, remaining: 0, reset: Math.ceil(usage.bannedUntil / 1000) },
        retryAtMs: usage.bannedUntil,
      });
    }
    // Rate limiting decides synchronously inside next(), before any operation awaits: the count is
    // cleared at admission, as a refused request arriving meanwhile must still count.
    const rest = next();
    const refusedUntil = context.get(refusedUntilSlot);
    if (refusedUntil === undefined) {
      recordAdmission(usage);
      return rest;
    }
    if (!recordRefusal(usage, refusedUntil, now, policy)) return rest;
    const shown = context.get(rateLimitSlot) ?? peekRateLimit(usage, limits, now);
    return refuse(context, 'temporarily_banned', {
      rateLimit: { ...shown, reset: Math.ceil(usage.bannedUntil / 1000) },
      retryAtMs: usage.bannedUntil,
    });
  };
}
