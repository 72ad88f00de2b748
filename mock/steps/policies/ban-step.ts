/** The ban step of the pipeline, over the ban rules of ban.ts. */

import {
  type BanPolicy,
  defaultBanPolicy,
  isBanned,
  recordAdmission,
  recordRefusal,
} from '../../base/quota/ban.ts';
import { peekRateLimit } from '../../base/quota/rate-limit.ts';
import { positiveInteger } from '../../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../../pipeline/config/policy-command-line.ts';
import type { Step } from '../../pipeline/pipeline.ts';
import { callerSlot } from './auth.ts';
import { rateLimitSlot } from './rate-limit-headers-step.ts';
import { refusedUntilSlot } from './rate-limit-step.ts';
import type { Refuse } from './refusal.ts';

/** The ban's options, which join createFake's through the step's registration. */
export interface BanOptions {
  /** When keys get banned. Default: 5 requests during Retry-After, banned 300 s. */
  readonly ban?: Partial<BanPolicy>;
}

/** The ban policy with its defaults filled in; a bad value throws a ConfigError naming it. */
function resolveBan(given: Partial<BanPolicy> = {}): BanPolicy {
  return {
    threshold: positiveInteger(given.threshold ?? defaultBanPolicy.threshold, 'ban.threshold'),
    durationSeconds: positiveInteger(
      given.durationSeconds ?? defaultBanPolicy.durationSeconds,
      'ban.durationSeconds',
    ),
  };
}

/**
 * The pipeline step, in front of rate limiting: a banned key is refused until the ban ends; a
 * rate-limit refusal (`refusedUntilSlot`) counts towards a ban and may start one, and an admitted
 * request clears the count.
 */
export function banStep({ refuse }: { readonly refuse: Refuse }, options: BanOptions): Step {
  const policy = resolveBan(options.ban);
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

/** `npm start --ban-threshold <n> --ban-seconds <n>`. */
banStep.commandLine = {
  flags: [
    {
      name: 'ban-threshold',
      value: '<n>',
      help: `requests during Retry-After that ban a key (default ${defaultBanPolicy.threshold})`,
      option: 'ban.threshold',
      reads: 'count',
    },
    {
      name: 'ban-seconds',
      value: '<n>',
      help: `length of a ban (default ${defaultBanPolicy.durationSeconds})`,
      option: 'ban.durationSeconds',
      reads: 'count',
    },
  ],
} satisfies PolicyCommandLine;
