import { expect, test } from 'vitest';
import { parseRetryAfter } from './retry-after.ts';

const now = Date.parse('2026-11-22T10:00:00Z');

test('reads delta-seconds', () => {
  expect(parseRetryAfter('30', now)).toEqual({ form: 'seconds', waitMs: 30_000 });
  expect(parseRetryAfter(' 0 ', now)).toEqual({ form: 'seconds', waitMs: 0 });
});

test('reads the three HTTP-date forms of RFC 9110', () => {
  const later = { form: 'http-date', waitMs: 90_000 };
  expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:30 GMT', now)).toEqual(later);
  expect(parseRetryAfter('Sunday, 22-Nov-26 10:01:30 GMT', now)).toEqual(later);
  expect(parseRetryAfter('Sun Nov 22 10:01:30 2026', now)).toEqual(later);
});

test('a date in the past means retry now', () => {
  expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toEqual({
    form: 'http-date',
    waitMs: 0,
  });
});

test('refuses anything else', () => {
  for (const value of [
    null,
    '',
    'soon',
    '-5',
    '1.5',
    '2026-11-22T10:01:30Z',
    'Sun, 22 Nov 2026 10:01:30 UTC',
  ])
    expect(parseRetryAfter(value, now)).toBeUndefined();
});
