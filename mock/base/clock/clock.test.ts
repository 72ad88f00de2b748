import { expect, test } from 'vitest';
import { createClock } from './clock.ts';

test('ticks with its source, shifted by set and advance', () => {
  let real = 1_000;
  const clock = createClock(() => real);
  clock.advance(500);
  real += 10;
  expect(clock.now()).toBe(1_510);
  clock.set(50_000);
  real += 5;
  expect(clock.now()).toBe(50_005);
});

test('a frozen clock stands still until unfrozen, then ticks from where it stood', () => {
  let real = 0;
  const clock = createClock(() => real);
  clock.freeze(true);
  real += 1_000;
  expect(clock.now()).toBe(0);
  clock.advance(60_000);
  expect(clock.now()).toBe(60_000);
  clock.freeze(false);
  real += 7;
  expect(clock.now()).toBe(60_007);
  clock.reset();
  expect(clock.now()).toBe(real);
});

test('refuses non-finite times', () => {
  const clock = createClock();
  expect(() => clock.set(Number.NaN)).toThrow(/clock/);
  expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrow(/clock/);
});
