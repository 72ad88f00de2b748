/**
 * Bearer authentication. Keys are compared in constant time, and every known key is compared on
 * every request, so response time says nothing about how close a guess was.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import { type AuthResult, authenticate } from '../../base/quota/authenticate.ts';
import { type KeyEntry, type Limits, limitsFor } from '../../base/quota/plans.ts';
import type { QuotaLedger } from '../../base/quota/quota.ts';
import type { KeyUsage } from '../../base/quota/rate-limit.ts';
import { type Context, createSlot, type Step } from '../../pipeline/pipeline.ts';

/** The challenge of a 401 for a key that was sent but is not valid (RFC 6750). */
export const invalidTokenChallenge = 'Bearer error="invalid_token"';

const unauthorizedMessage = {
  missing: 'Missing API key: send "Authorization: Bearer <API_KEY>".',
  malformed: 'Malformed Authorization header: expected "Bearer <API_KEY>".',
  unknown: 'Invalid API key.',
} as const;

/**
 * The authenticated caller: its key, the limits that apply to it and, when the ledger answers at
 * once, its usage record (callerUsage gives it either way).
 */
export interface Caller {
  readonly key: KeyEntry;
  readonly usage: KeyUsage | undefined;
  readonly limits: Limits;
}

/** How a shared ledger's read of the caller's usage is made: once, by the first step that shows it. */
const pendingUsageSlot = createSlot<() => Promise<KeyUsage>>("the caller's usage, read when shown");

/**
 * The caller's usage record, for a step that shows it before the quota decides (a forced
 * answer, chaos, Prefer): at once, or once a shared ledger has read it.
 */
export function callerUsage(context: Context): KeyUsage | Promise<KeyUsage> {
  return context.need(callerSlot).usage ?? context.need(pendingUsageSlot)();
}

/** The caller, for every step after authentication. */
export const callerSlot = createSlot<Caller>('the authenticated caller');

/** The key id the request log shows: `-` without a key, `unknown` for a key that matched none. */
export const keyIdSlot = createSlot<string>('the key id');

/** Who the request's Authorization header named, once the identify step has read it. */
const identitySlot = createSlot<AuthResult>('who the Authorization header names');

/** The key a request named, once the identify step ran: `null` for none or one that matched none. */
export function identifiedKey(context: Context): KeyEntry | null | undefined {
  const identity = context.get(identitySlot);
  return identity === undefined ? undefined : identity.ok ? identity.key : null;
}

/**
 * Who an Authorization header names among `keys`: the one place a header is authenticated, for
 * the identify step and for an answer given outside the pipeline (a request refused before any,
 * a replica's 503).
 */
export function identityOf(keys: readonly KeyEntry[], authorization: string | null): AuthResult {
  return authenticate(authorization, keys);
}

/**
 * The step that reads the Authorization header, before any refusal that tells the caller its
 * window (a bad Host): it refuses nothing, so the refusals after it know the key without
 * authenticating again.
 */
export function identifyStep(keys: readonly KeyEntry[]): Step {
  return (context, next) => {
    const identity = identityOf(keys, context.request.header('authorization'));
    context.set(identitySlot, identity);
    context.set(
      keyIdSlot,
      identity.ok ? identity.key.id : identity.reason === 'missing' ? undefined : 'unknown',
    );
    return next();
  };
}

/**
 * What authentication reads: the plans (changed by the control surface), the quota ledger, and
 * whether the ledger is shared with other processes.
 */
interface AuthenticateOptions {
  readonly plans: Readonly<Record<string, Limits>>;
  readonly quota: QuotaLedger;
  readonly shared: boolean;
}

/**
 * The pipeline step: a request without a valid key gets 401 with its challenge; one with a valid
 * key goes on as that key's caller, with its limits and usage record. A shared ledger's record
 * is read only when a step shows it, so that a request no step shows it to costs the engine
 * its decision alone.
 */
export function authenticateStep({ plans, quota, shared }: AuthenticateOptions): Step {
  return (context, next) => {
    const identity = context.need(identitySlot);
    if (!identity.ok)
      return errorAnswer('unauthorized', unauthorizedMessage[identity.reason], {
        'WWW-Authenticate': identity.reason === 'missing' ? 'Bearer' : invalidTokenChallenge,
      });
    const { key } = identity;
    const usage = shared ? undefined : quota.read(key.id);
    if (usage === undefined || usage instanceof Promise) {
      // A read that fails fails the steps that show it, never the process.
      usage?.catch(() => {});
      let read = usage;
      context.set(pendingUsageSlot, () => {
        read ??= Promise.resolve(quota.read(key.id));
        return read;
      });
      context.set(callerSlot, { key, usage: undefined, limits: limitsFor(plans, key) });
      return next();
    }
    context.set(callerSlot, { key, usage, limits: limitsFor(plans, key) });
    return next();
  };
}
