import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parseJson, stringifyJson } from './lossless-json.ts';

test('int64 values survive a parse/stringify round trip digit for digit', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
      const text = `{"categoryId":${n}}`;
      expect(stringifyJson(parseJson(text))).toBe(text);
    }),
    { seed: 42, numRuns: 500 },
  );
});

test('safe integers and other numbers stay plain numbers', () => {
  expect(parseJson('[1, -2, 1.5, 9007199254740991, 1e400]')).toEqual([
    1,
    -2,
    1.5,
    9007199254740991,
    Number.POSITIVE_INFINITY,
  ]);
});

test('a __proto__ key is data, not a prototype', () => {
  const value = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('parses as the reviver alone would, whatever digits surround a long run: integers past 2^53 become bigints, fractions and exponents stay numbers', () => {
  const exact = (text: string) =>
    JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
      const source = context?.source ?? '';
      return typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(source)
        ? BigInt(source)
        : value;
    });
  const digits = fc.stringMatching(/^[1-9]\d{0,21}$/);
  const token = fc.oneof(
    digits,
    // The shortest unsafe integers: 16 digits, just past 2^53.
    fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 16n - 1n }).map(String),
    digits.map((run) => `-${run}`),
    fc.tuple(digits, digits).map(([whole, fraction]) => `${whole}.${fraction}`),
    fc.tuple(digits, fc.integer({ min: -30, max: 30 })).map(([run, power]) => `${run}e${power}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
    digits.map((run) => JSON.stringify(`id ${run}.${run}`)),
  );
  fc.assert(
    fc.property(fc.array(token, { maxLength: 8 }), (tokens) => {
      const text = `[${tokens.join(',')}]`;
      expect(parseJson(text)).toEqual(exact(text));
    }),
    { seed: 50, numRuns: 2000 },
  );
});
