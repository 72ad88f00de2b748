/**
 * Bearer authentication. Keys are compared in constant time, and every known key is compared on
 * every request, so response time says nothing about how close a guess was.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import { startsWithIgnoringCase } from '../../base/messages/ascii-case.ts';
import { bearerTokenPattern } from '../../base/quota/key-format.ts';
import { type KeyEntry, type Limits, limitsFor } from '../../base/quota/plans.ts';
import { type KeyUsage, usageOf } from '../../base/quota/rate-limit.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';

/** Why a request was not authenticated; `undefined` key means it was. */
export type AuthResult =
  | { readonly ok: true; readonly key: KeyEntry }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'unknown' };

/**
 * Compares two strings in time that depends only on their lengths, not their contents: every
 * UTF-16 code unit of the shorter length is compared, with no early exit. (Keys and tokens are
 * ASCII, key-format.ts, so this is their bytes; the control token may not be, and equal code
 * units are equal strings all the same.)
 */
export function constantTimeEqual(a: string, b: string): boolean {
  // Over the shorter length: no read past either string's end; the loop's length still depends
  // on the lengths only, and unequal lengths never compare equal.
  const length = Math.min(a.length, b.length);
  let difference = a.length ^ b.length;
  for (let i = 0; i < length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Extracts the token of an `Authorization: Bearer <token>` header: the scheme in any case, one
 * or more spaces, a b64token (RFC 6750), then nothing but spaces. Read character by character,
 * where a regular expression and its match array cost more than the rest of authentication.
 */
export function parseBearer(header: string | null): string | 'missing' | 'malformed' {
  if (header === null || header.trim() === '') return 'missing';
  // The scheme in any case (RFC 9110 section 11.1), then a space.
  if (!startsWithIgnoringCase(header, 'bearer') || header.charCodeAt(6) !== 32) return 'malformed';
  let start = 7;
  while (header.charCodeAt(start) === 32) start += 1;
  let end = header.indexOf(' ', start);
  if (end === -1) end = header.length;
  for (let i = end; i < header.length; i++) if (header.charCodeAt(i) !== 32) return 'malformed';
  const token = header.slice(start, end);
  return token !== '' && bearerTokenPattern.test(token) ? token : 'malformed';
}

/** Authenticates an Authorization header value against the known keys. */
export function authenticate(header: string | null, keys: readonly KeyEntry[]): AuthResult {
  const token = parseBearer(header);
  if (token === 'missing' || token === 'malformed') return { ok: false, reason: token };
  let found: KeyEntry | undefined;
  for (const entry of keys) {
    // No early exit: every key costs the same whether or not an earlier one matched.
    if (constantTimeEqual(token, entry.key) && found === undefined) found = entry;
  }
  return found ? { ok: true, key: found } : { ok: false, reason: 'unknown' };
}

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
