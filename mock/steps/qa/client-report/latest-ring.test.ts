import { expect, test } from 'vitest';
import { LatestRing } from './latest-ring.ts';

test('a ring keeps the latest items up to its capacity, the newest first, the oldest at 0', () => {
  const ring = new LatestRing<number>(3);
  expect(ring.size).toBe(0);
  expect(ring.newestFirst()).toEqual([]);
  ring.push(1);
  ring.push(2);
  expect(ring.newestFirst()).toEqual([2, 1]);
  expect([ring.at(0), ring.at(1)]).toEqual([1, 2]);
  for (const item of [3, 4, 5, 6, 7]) ring.push(item);
  // 5, 6 and 7 are the latest three; 4 went when 7 came.
  expect(ring.size).toBe(3);
  expect(ring.newestFirst()).toEqual([7, 6, 5]);
  expect([ring.at(0), ring.at(1), ring.at(2)]).toEqual([5, 6, 7]);
});

test('a ring holds what an array trimmed with shift() would, after any number of pushes', () => {
  for (let pushes = 0; pushes <= 20; pushes++) {
    const ring = new LatestRing<number>(8);
    const trimmed: number[] = [];
    for (let item = 0; item < pushes; item++) {
      ring.push(item);
      trimmed.push(item);
      if (trimmed.length > 8) trimmed.shift();
    }
    expect(ring.newestFirst()).toEqual([...trimmed].reverse());
    expect(Array.from({ length: ring.size }, (_, index) => ring.at(index))).toEqual(trimmed);
  }
});
