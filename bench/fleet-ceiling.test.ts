/** The fleet's ceiling: one Redis core over Redis's CPU per request, and the replica cores it takes. */
import { expect, test } from 'vitest';
import { fleetCeiling } from './fleet-ceiling.ts';

test('one Redis core at 25 µs a request serves 40,000 req/s, with 4 cores of replicas at 100 µs', () => {
  expect(fleetCeiling(25, 100)).toEqual({ requestsPerSecond: 40_000, replicaCores: 4 });
});

test('an unknown or zero Redis CPU gives no ceiling rather than an infinite one', () => {
  expect(fleetCeiling(Number.NaN, 100).requestsPerSecond).toBeNaN();
  expect(fleetCeiling(0, 100).replicaCores).toBeNaN();
});
