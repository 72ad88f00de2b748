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
