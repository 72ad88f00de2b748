import fc from 'fast-check';
import { expect, test } from 'vitest';
import { parsePetId } from './get-pet.ts';

test('parses decimal ids that a stored pet could have', () => {
  expect(parsePetId('1')).toBe(1);
  expect(parsePetId('0042')).toBe(42);
  expect(parsePetId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
});

test('never returns a rounded id: int64 values past 2^53 and non-integers match nothing', () => {
  for (const raw of [
    '9007199254740993',
    '9223372036854775807',
    '9223372036854775808',
    '1e3',
    '0x10',
    '1.0',
    ' 1',
    'abc',
    '',
    '-',
    '123456789012345678901',
  ]) {
    expect(parsePetId(raw), raw).toBeUndefined();
  }
});

test('parses any decimal text as the int64 it writes, when that is a safe integer (seed 41)', () => {
  // The reference: what the id is as a BigInt, kept only when a Number holds it exactly.
  const reference = (raw: string) => {
    if (!/^-?\d{1,20}$/.test(raw)) return undefined;
    const big = BigInt(raw);
    if (big < -(2n ** 63n) || big >= 2n ** 63n) return undefined;
    const id = Number(big);
    return Number.isSafeInteger(id) ? id : undefined;
  };
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 21 });
  const text = fc.oneof(
    digits,
    digits.map((raw) => `-${raw}`),
    fc.string({ maxLength: 22 }),
  );
  fc.assert(
    fc.property(text, (raw) => {
      // === rather than Object.is: "-0" may parse to -0, one key with 0 in the store's Map.
      expect(parsePetId(raw) === reference(raw), raw).toBe(true);
    }),
    { seed: 41, numRuns: 5000 },
  );
});
