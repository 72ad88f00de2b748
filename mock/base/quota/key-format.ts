/**
 * The one rule for what an API key looks like, shared by the keys file, the control surface and
 * the Bearer parser: a key the fake accepts is always one a client can send.
 */

/** RFC 6750's b64token (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding), which a Bearer header carries. */
export const bearerTokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Shortest and longest accepted key, in characters. */
const keyLength = { min: 8, max: 256 } as const;

/** What is wrong with `key` as an API key, or `undefined` when it is a good one. */
export function keyFormatProblem(key: unknown): string | undefined {
  if (
    typeof key === 'string' &&
    key.length >= keyLength.min &&
    key.length <= keyLength.max &&
    bearerTokenPattern.test(key)
  ) {
    return undefined;
  }
  return `must be ${keyLength.min} to ${keyLength.max} characters of A-Z a-z 0-9 - . _ ~ + / (then = padding), as a Bearer token carries`;
}
