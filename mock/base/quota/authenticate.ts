/**
 * Who a request's Authorization header names: the Bearer token parsed by hand (RFC 6750, the
 * scheme in any case) and compared with every known key in constant time. Pure: the auth step
 * (steps/policies/auth.ts) and the X-RateLimit-* headers of answers no window counted both ask.
 */
import { startsWithIgnoringCase } from '../messages/ascii-case.ts';
import { bearerTokenPattern } from './key-format.ts';
import type { KeyEntry } from './plans.ts';

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
