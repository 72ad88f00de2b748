/**
 * Bearer authentication. Keys are compared in constant time, and every known key is compared on
 * every request, so response time says nothing about how close a guess was.
 */

import { errorAnswer } from '../../base/messages/answer.ts';
import { bearerTokenPattern } from '../../base/quota/key-format.ts';
import { type KeyEntry, type Limits, limitsFor } from '../../base/quota/plans.ts';
import { type KeyUsage, usageOf } from '../../base/quota/rate-limit.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';

/** Why a request was not authenticated; `undefined` key means it was. */
export type AuthResult =
  | { readonly ok: true; readonly key: KeyEntry }
  | { readonly ok: false; readonly reason: 'missing' | 'malformed' | 'unknown' };

const encoder = new TextEncoder();

/** Compares two strings in time that depends only on their lengths, not their contents. */
export function constantTimeEqual(a: string, b: string): boolean {
  return constantTimeEqualBytes(encoder.encode(a), encoder.encode(b));
}

function constantTimeEqualBytes(left: Uint8Array, right: Uint8Array): boolean {
  // Over the shorter length: no read past either array's end, which V8 serves off its fast path
  // (the four demo keys took 0.20 µs a request that way, 0.08 µs now: bench/optimisations.md).
  // The loop's length still depends on the lengths only; unequal lengths never compare equal.
  const length = Math.min(left.length, right.length);
  let difference = left.length ^ right.length;
  for (let i = 0; i < length; i++) difference |= (left[i] as number) ^ (right[i] as number);
  return difference === 0;
}

// Each known key's bytes, encoded once rather than on every request (keys are few and long-lived;
// `KeyEntry.key` is readonly, and a key added through the control surface is a new entry).
const keyBytes = new WeakMap<KeyEntry, Uint8Array>();
function bytesOf(entry: KeyEntry): Uint8Array {
  let bytes = keyBytes.get(entry);
  if (bytes === undefined) {
    bytes = encoder.encode(entry.key);
    keyBytes.set(entry, bytes);
  }
  return bytes;
}

// One buffer for the token of the request being authenticated, instead of a new array per
// request: authentication is synchronous, so no two requests share it at once.
const tokenBuffer = new Uint8Array(1024);

/** The token's UTF-8 bytes: a view of the shared buffer, or a copy when it does not fit. */
function tokenBytesOf(token: string): Uint8Array {
  const { read, written } = encoder.encodeInto(token, tokenBuffer);
  return read === token.length ? tokenBuffer.subarray(0, written) : encoder.encode(token);
}

/** Extracts the token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 9110). */
export function parseBearer(header: string | null): string | 'missing' | 'malformed' {
  if (header === null || header.trim() === '') return 'missing';
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  return token !== undefined && bearerTokenPattern.test(token) ? token : 'malformed';
}

/** Authenticates an Authorization header value against the known keys. */
export function authenticate(header: string | null, keys: readonly KeyEntry[]): AuthResult {
  const token = parseBearer(header);
  if (token === 'missing' || token === 'malformed') return { ok: false, reason: token };
  const tokenBytes = tokenBytesOf(token);
  let found: KeyEntry | undefined;
  for (const entry of keys) {
    // No early exit: every key costs the same whether or not an earlier one matched.
    if (constantTimeEqualBytes(tokenBytes, bytesOf(entry)) && found === undefined) found = entry;
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
