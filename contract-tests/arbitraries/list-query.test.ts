import { expect, test } from 'vitest';
import { pageSize, petStatuses } from '../contract/interface-facts.ts';
import { statusLimitPairs } from './list-query.ts';

test('statusLimitPairs: every status with every limit edge class once, each block of three a status each with a different limit', () => {
  const limits = [undefined, pageSize.min, pageSize.default, pageSize.max];
  const keys = statusLimitPairs.map(({ status, limit }) => `${status}/${limit}`);
  expect(new Set(keys)).toEqual(
    new Set(petStatuses.flatMap((status) => limits.map((limit) => `${status}/${limit}`))),
  );
  expect(keys).toHaveLength(petStatuses.length * limits.length);
  for (let start = 0; start < statusLimitPairs.length; start += petStatuses.length) {
    const block = statusLimitPairs.slice(start, start + petStatuses.length);
    expect(block.map(({ status }) => status)).toEqual([...petStatuses]);
    expect(new Set(block.map(({ limit }) => limit)).size).toBe(petStatuses.length);
  }
  // The first block, all a Free key's run sends: a status with limit 100, with 20 and without.
  expect(statusLimitPairs.slice(0, 3).map(({ limit }) => limit)).toEqual([100, 20, undefined]);
});
