import { expect, test } from 'vitest';
import { describeClockOffset } from './clock-offset.ts';

test('an offset reads as its two largest units, behind or ahead of real time', () => {
  // Six months behind, which a count of milliseconds shows as `-15470879364 ms`.
  expect(describeClockOffset(-15_470_879_364)).toBe('179 d 1 h behind real time');
  expect(describeClockOffset(125_000)).toBe('2 min 5 s ahead of real time');
  expect(describeClockOffset(86_400_000 + 30_000)).toBe('1 d ahead of real time');
  expect(describeClockOffset(-1500)).toBe('1 s 500 ms behind real time');
  expect(describeClockOffset(-5000)).toBe('5 s behind real time');
  expect(describeClockOffset(0.2)).toBe('at real time');
});
