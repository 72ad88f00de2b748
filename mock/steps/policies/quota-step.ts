/**
 * The quota step of the pipeline: the one place a request with a valid key is admitted, refused
 * 429 or refused as banned, over the quota decision of quota.ts and the ledger that holds every
 * key's usage. It owns the ban's options and flags, and its decision, which the client report
 * reads once the answer is back.
 */

import type { Answer } from '../../base/messages/answer.ts';
import { type BanPolicy, defaultBanPolicy } from '../../base/quota/ban.ts';
import type { QuotaDecision, QuotaLedger } from '../../base/quota/quota.ts';
import { positiveInteger } from '../../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../../pipeline/config/policy-command-line.ts';
import { type Context, createSlot, type Policy, type Step } from '../../pipeline/pipeline.ts';
import type { AdmissionRequest, SharedAdmission } from '../../pipeline/shared-admission.ts';
import { requestStoreSlot } from '../routes/route.ts';
import { callerSlot } from './auth.ts';
import { rateLimitSlot } from './rate-limit-headers-step.ts';
import type { Refuse } from './refusal.ts';

/** What the quota made of the request, when it got that far. */
export const quotaSlot = createSlot<QuotaDecision>("the quota's decision");

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
 * What the quota step decides with: the ledger, the one way a step refuses and, on a shared
 * state, the decision that waits for the route's store call.
 */
interface QuotaParts {
  readonly quota: QuotaLedger;
  readonly refuse: Refuse;
  readonly admission: ((request: AdmissionRequest) => SharedAdmission) | undefined;
}

/**
 * The pipeline step: admits the request and passes it on, or answers 429 `rate_limited` with
 * Retry-After, or 403 `temporarily_banned` until the ban ends.
 */
export function quotaStep(
  { quota, refuse, admission }: QuotaParts,
  options: BanOptions,
): Policy & { readonly step: Step } {
  const policy = resolveBan(options.ban);
  const act = (
    context: Context,
    next: () => Promise<Answer>,
    decision: QuotaDecision,
  ): Answer | Promise<Answer> => {
    context.set(quotaSlot, decision);
    if (decision.verdict === 'admitted') {
      context.set(rateLimitSlot, decision.rateLimit);
      return next();
    }
    return refuse(context, decision.verdict === 'banned' ? 'temporarily_banned' : 'rate_limited', {
      rateLimit: decision.rateLimit,
      retryAtMs: decision.retryAtMs,
    });
  };
  /**
   * On a shared state the route runs while the decision is open, and its store call carries the
   * decision to the engine (pipeline/shared-admission.ts); a refused request's route never
   * reached the store, and its answer is dropped here.
   */
  const admitWithRoute = async (
    context: Context,
    next: () => Promise<Answer>,
    open: SharedAdmission,
  ): Promise<Answer> => {
    context.set(requestStoreSlot, open.store);
    const route = next();
    // A route that answered without a store call sends the decision alone; and a refused
    // request's store call fails its route, whose answer is not sent.
    route.then(open.send, open.send);
    const decision = await open.decision;
    return act(context, () => route, decision);
  };
  const step: Step = (context, next) => {
    const { key, limits } = context.need(callerSlot);
    if (admission !== undefined)
      return admitWithRoute(
        context,
        next,
        admission({ keyId: key.id, limits, now: context.now, policy }),
      );
    const decision = quota.decide(key.id, limits, context.now, policy);
    return decision instanceof Promise
      ? decision.then((decided) => act(context, next, decided))
      : act(context, next, decision);
  };
  return { step, reset: () => quota.clear() };
}

/** `npm start --ban-threshold <n> --ban-seconds <n>`. */
quotaStep.commandLine = {
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
