/**
 * Bearer authentication. Keys are compared in constant time, and every known key is compared on
 * every request, so response time says nothing about how close a guess was.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import { authenticate } from '../../base/quota/authenticate.ts';
import { type KeyEntry, type Limits, limitsFor } from '../../base/quota/plans.ts';
import { type KeyUsage, usageOf } from '../../base/quota/rate-limit.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';

/** The challenge of a 401 for a key that was sent but is not valid (RFC 6750). */
export const invalidTokenChallenge = 'Bearer error="invalid_token"';

const unauthorizedMessage = {
  missing: 'Missing API key: send "Authorization: Bearer <API_KEY>".',
  malformed: 'Malformed Authorization header: expected "Bearer <API_KEY>".',
  unknown: 'Invalid API key.',
} as const;

/** The authenticated caller: its key, its usage record and the limits that apply to it. */
export interface Caller {
  readonly key: KeyEntry;
  readonly usage: KeyUsage;
  readonly limits: Limits;
}

/** The caller, for every step after authentication. */
export const callerSlot = createSlot<Caller>('the authenticated caller');

/** The key id the request log shows: `-` without a key, `unknown` for a key that matched none. */
export const keyIdSlot = createSlot<string>('the key id');

/** What authentication reads: the known keys and plans (both changed by the control surface) and the usage ledger. */
interface AuthenticateOptions {
  readonly keys: readonly KeyEntry[];
  readonly plans: Readonly<Record<string, Limits>>;
  /** Rate-limit usage by key id. */
  readonly ledger: Map<string, KeyUsage>;
}

/**
 * The pipeline step: a request without a valid key gets 401 with its challenge; one with a valid
 * key goes on as that key's caller, with its usage record and limits.
 */
export function authenticateStep({ keys, plans, ledger }: AuthenticateOptions): Step {
  return (context, next) => {
    const auth = authenticate(context.request.header('authorization'), keys);
    if (!auth.ok) {
      if (auth.reason !== 'missing') context.set(keyIdSlot, 'unknown');
      return errorAnswer('unauthorized', unauthorizedMessage[auth.reason], {
        'WWW-Authenticate': auth.reason === 'missing' ? 'Bearer' : invalidTokenChallenge,
      });
    }
    const key = auth.key;
    context.set(keyIdSlot, key.id);
    context.set(callerSlot, { key, usage: usageOf(ledger, key.id), limits: limitsFor(plans, key) });
    return next();
  };
}
