/**
 * Authorization headers that must not authenticate. Variants built around the real key use
 * `keyPlaceholder`, so counterexamples and curl lines show `$PETSTORE_API_KEY`, never the key.
 */
import fc from 'fast-check';
import { keyPlaceholder } from '../http/exchange.ts';

/** What starts every token the harness makes up: none is a key, so reports may show them. */
export const madeUpTokenPrefix = 'contract-invalid-';

/** A well-formed bearer header with a token no server issued (prefixed so it cannot be a key). */
export const unknownKeyHeader = (): fc.Arbitrary<string> =>
  fc
    .stringMatching(/^[A-Za-z0-9._~+/-]{1,48}$/)
    .map((token) => `Bearer ${madeUpTokenPrefix}${token}`);

/** A header that is not `Bearer <API_KEY>`: another scheme, no scheme, no token, extra parts. */
export const malformedAuthHeader = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      keyPlaceholder,
      `Basic ${keyPlaceholder}`,
      `Token ${keyPlaceholder}`,
      `Bearer: ${keyPlaceholder}`,
      `Bearer=${keyPlaceholder}`,
      `Bearer ${keyPlaceholder} ${keyPlaceholder}`,
      `${keyPlaceholder} Bearer`,
      'Bearer',
      'Basic dXNlcjpwYXNz',
    ),
    fc.stringMatching(/^[A-Za-z0-9]{1,20}$/).map((word) => `Basic ${word}`),
    fc.stringMatching(/^[!-~]{1,30}$/).filter((text) => !/^bearer /i.test(text)),
  );
