/** Values for `GET /pets`'s query: limits in and out of range, status values known and not. */
import fc from 'fast-check';
import { pageSize, petStatuses } from '../contract/interface-facts.ts';

/** A `limit` the interface allows (1 to 100), edges weighted in. */
export const limitInRange = (): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(pageSize.min, pageSize.default, pageSize.default + 1, pageSize.max),
    fc.integer({ min: pageSize.min, max: pageSize.max }),
  );

/** A `limit` outside 1 to 100, or not an integer at all, sent as raw text. */
export const limitOutOfRange = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '0',
      '-1',
      '101',
      '1000',
      '99999999999999999999',
      '1.5',
      'abc',
      '',
      ' 5',
      '0x10',
    ),
    fc.integer({ min: pageSize.max + 1, max: 1_000_000_000 }).map(String),
    fc.integer({ min: -1_000_000_000, max: pageSize.min - 1 }).map(String),
    fc.stringMatching(/^[A-Za-z]{1,8}$/),
  );

/** One PetStatus value. */
export const knownStatus = () => fc.constantFrom(...petStatuses);

/** A `status` that is not a PetStatus (case variants, padding, other words). */
export const unknownStatus = (): fc.Arbitrary<string> =>
  fc
    .oneof(
      fc.constantFrom('Available', 'SOLD', 'Pending', 'available ', 'deleted', 'adopted', ''),
      fc.stringMatching(/^[A-Za-z_-]{1,16}$/),
      fc.string({ maxLength: 12 }),
    )
    .filter((value) => !(petStatuses as readonly string[]).includes(value));

/** A status query and its limit (undefined: omitted), as `listPets.statusFilter` sends it. */
export interface StatusQuery {
  readonly status: (typeof petStatuses)[number];
  readonly limit: number | undefined;
}

/**
 * Every status paired with every limit edge class (omitted, 1, 20, 100): 12 queries. The first
 * nine are three blocks where each status meets a different limit of omitted, 1 and 20 (a 3 x 3
 * Latin square), so the first block already sends a status with limit 20, with limit 1 and
 * without limit: a server that drops one parameter when the other is present shows it there.
 * Limit 100 with each status comes last: in a run with writes, `createPet.refusedLeavesNoPet`
 * sends those three and checks the filter on them, so a Free key's minute need not repeat them.
 */
export const statusLimitPairs: readonly StatusQuery[] = (() => {
  const [available, pending, sold] = petStatuses;
  const statuses = [available, pending, sold];
  const limits = [pageSize.default, pageSize.min, undefined] as const;
  const pairs: StatusQuery[] = [];
  // Block b gives the i-th status the limit (b + i) mod 3.
  for (let block = 0; block < limits.length; block++)
    statuses.forEach((status, index) => {
      pairs.push({ status, limit: limits[(block + index) % limits.length] });
    });
  for (const status of statuses) pairs.push({ status, limit: pageSize.max });
  return pairs;
})();

/** How many of `statusLimitPairs` a run always sends: every status with limit omitted, 1 and 20. */
export const statusLimitExamples = 9;

/** A limit outside 1..100 and the status sent with it (undefined: omitted). */
export interface OutOfRangeQuery {
  readonly limit: string;
  readonly status: (typeof petStatuses)[number] | undefined;
}

/**
 * Each end of the range (just below, just above) with every status or none: 8 queries, the end
 * alternating, so the first two already send one end without status and the other with one. A
 * server that checks limit only on the path without status (or only with) shows it there.
 */
export const outOfRangeStatusPairs: readonly OutOfRangeQuery[] = (() => {
  const [available, pending, sold] = petStatuses;
  // Just above the range first: without a filter the most pets match, so a page above 100 can show.
  const ends = [String(pageSize.max + 1), String(pageSize.min - 1)];
  const statuses = [undefined, available, pending, undefined, sold, pending, available, sold];
  return statuses.map((status, index) => ({ limit: ends[index % 2] ?? '0', status }));
})();

/** A status that is not a PetStatus and the limit sent with it (undefined: omitted). */
export interface UnknownStatusQuery {
  readonly status: string;
  readonly limit: number | undefined;
}

/**
 * Unknown statuses with each limit edge class (100, 20, omitted, 1), limit 100 first: a server
 * that reads status apart on its paged path (e.g. a query builder that throws on an unknown enum
 * value only with a limit) shows it in the first run.
 */
export const unknownStatusLimitPairs: readonly UnknownStatusQuery[] = [
  { status: 'Available', limit: pageSize.max },
  { status: 'deleted', limit: pageSize.default },
  { status: 'SOLD', limit: undefined },
  { status: 'pending ', limit: pageSize.min },
];
