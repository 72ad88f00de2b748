import { expect, test } from 'vitest';
import { pageSize, petStatuses } from '../contract/interface-facts.ts';
import {
  outOfRangeStatusPairs,
  statusLimitExamples,
  statusLimitPairs,
  unknownStatusLimitPairs,
} from './list-query.ts';

test('statusLimitPairs: every status with every limit edge class once; the nine always sent are blocks of three, each status with a different limit of omitted, 1 and 20; limit 100 last', () => {
  const limits = [undefined, pageSize.min, pageSize.default, pageSize.max];
  const keys = statusLimitPairs.map(({ status, limit }) => `${status}/${limit}`);
  expect(new Set(keys)).toEqual(
    new Set(petStatuses.flatMap((status) => limits.map((limit) => `${status}/${limit}`))),
  );
  expect(keys).toHaveLength(petStatuses.length * limits.length);
  const always = statusLimitPairs.slice(0, statusLimitExamples);
  expect(new Set(always.map(({ limit }) => limit))).toEqual(
    new Set([undefined, pageSize.min, pageSize.default]),
  );
  for (let start = 0; start < statusLimitPairs.length; start += petStatuses.length) {
    const block = statusLimitPairs.slice(start, start + petStatuses.length);
    expect(block.map(({ status }) => status)).toEqual([...petStatuses]);
    const blockLimits = new Set(block.map(({ limit }) => limit));
    expect(blockLimits.size).toBe(start < statusLimitExamples ? petStatuses.length : 1);
  }
  // The first block: a status with limit 20, with 1 and without.
  expect(statusLimitPairs.slice(0, 3).map(({ limit }) => limit)).toEqual([20, 1, undefined]);
  expect(statusLimitPairs.slice(statusLimitExamples).map(({ limit }) => limit)).toEqual([
    100, 100, 100,
  ]);
});

test('outOfRangeStatusPairs: each end of the range with every status and none once; 101 without status first (the most pets match it), then 0 with one', () => {
  const ends = [String(pageSize.min - 1), String(pageSize.max + 1)];
  const statuses = [undefined, ...petStatuses];
  const keys = outOfRangeStatusPairs.map(({ limit, status }) => `${limit}/${status}`);
  expect(new Set(keys)).toEqual(
    new Set(ends.flatMap((limit) => statuses.map((status) => `${limit}/${status}`))),
  );
  expect(keys).toHaveLength(ends.length * statuses.length);
  const [first, second] = outOfRangeStatusPairs;
  expect(new Set([first?.limit, second?.limit])).toEqual(new Set(ends));
  expect([first?.status === undefined, second?.status === undefined]).toEqual([true, false]);
  expect(first?.limit).toBe(String(pageSize.max + 1));
});

test('unknownStatusLimitPairs: statuses that are not a PetStatus, with every limit edge class once, limit 100 first', () => {
  for (const { status } of unknownStatusLimitPairs)
    expect(petStatuses as readonly string[]).not.toContain(status);
  expect(unknownStatusLimitPairs.map(({ limit }) => limit)).toEqual([
    pageSize.max,
    pageSize.default,
    undefined,
    pageSize.min,
  ]);
});
