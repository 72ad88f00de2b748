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
