import fc from 'fast-check';
import { expect, test } from 'vitest';
import { coverageItems } from './coverage-items.ts';
import { type CoverageRecord, maxSenders } from './coverage-record.ts';
import { type CoverageExchange, createCoverageRecorder } from './interface-coverage.ts';
import { CoverageMergeError, mergeCoverage } from './merge-coverage.ts';

const start = Date.parse('2026-06-01T12:00:00Z');

/** The parts of an exchange that the arbitraries vary. */
interface Sent {
  readonly operationId: 'listPets' | 'createPet' | 'getPet';
  readonly status: number;
  readonly keyId: string;
  readonly at: number;
}

function exchange({ operationId, status, keyId, at }: Sent): CoverageExchange {
  const headers = new Map<string, string>([
    ['x-ratelimit-limit', '60'],
    ['x-ratelimit-remaining', '0'],
    ['x-ratelimit-reset', String(Math.floor(at / 1000) + 60)],
    ...(status === 429 ? ([['retry-after', '30']] as const) : []),
  ]);
  return {
    operationId,
    method: operationId === 'createPet' ? 'POST' : 'GET',
    path: operationId === 'getPet' ? '/v1/pets/42' : '/v1/pets',
    query: new URLSearchParams(),
    status,
    errorBody: status >= 400,
    at,
    keyId,
    header: (name) => headers.get(name.toLowerCase()),
  };
}

const sentArb = fc.record({
  operationId: fc.constantFrom('listPets', 'createPet', 'getPet'),
  status: fc.constantFrom(200, 201, 400, 401, 404, 429),
  keyId: fc.constantFrom('demo-free', 'demo-pro', 'demo-enterprise'),
  at: fc.integer({ min: start, max: start + 3_600_000 }),
});

/** A record of the fake's, from what one part of a suite sent. */
function recordOf(sent: readonly Sent[], now = start + 7_200_000): CoverageRecord {
  const recorder = createCoverageRecorder();
  // A source sees its traffic in time order.
  for (const each of [...sent].sort((a, b) => a.at - b.at)) recorder.see(exchange(each));
  return recorder.record('fake', now);
}

const recordArb = fc.array(sentArb, { maxLength: 30 }).map((sent) => recordOf(sent));

/** What a merge must get right whatever the order: each item's status and count. */
const tallies = (record: CoverageRecord) =>
  record.items.map((item) => `${item.id} ${item.status} ${item.count}`);

test('merging one record gives it back', () => {
  fc.assert(
    fc.property(recordArb, (record) => {
      expect(mergeCoverage([record])).toEqual(record);
    }),
    { seed: 21, numRuns: 200 },
  );
});

test('merging is commutative and associative on statuses and counts', () => {
  fc.assert(
    fc.property(recordArb, recordArb, recordArb, (a, b, c) => {
      expect(tallies(mergeCoverage([a, b]))).toEqual(tallies(mergeCoverage([b, a])));
      expect(tallies(mergeCoverage([mergeCoverage([a, b]), c]))).toEqual(
        tallies(mergeCoverage([a, mergeCoverage([b, c])])),
      );
      expect(tallies(mergeCoverage([a, b, c]))).toEqual(
        tallies(mergeCoverage([a, mergeCoverage([b, c])])),
      );
    }),
    { seed: 21, numRuns: 200 },
  );
});

test('each item counts what every part sent, is exercised if any part exercised it, and shows the earliest first and latest last example', () => {
  fc.assert(
    fc.property(fc.array(fc.array(sentArb, { maxLength: 15 }), { maxLength: 5 }), (parts) => {
      fc.pre(parts.length > 0);
      const merged = mergeCoverage(parts.map((sent) => recordOf(sent)));
      const all = parts.flat();
      // The model: count the operation x status items by hand, from what was sent.
      for (const { id, status, count, first, last } of merged.items.filter(
        (item) => item.kind === 'status',
      )) {
        const sent = all.filter((each) => `${each.operationId} ${each.status}` === id);
        expect(count, id).toBe(sent.length);
        expect(status, id).toBe(sent.length > 0 ? 'exercised' : 'not-exercised');
        if (sent.length === 0) continue;
        const times = sent.map((each) => each.at);
        expect(first?.at, id).toBe(new Date(Math.min(...times)).toISOString());
        expect(last?.at, id).toBe(new Date(Math.max(...times)).toISOString());
      }
      expect(merged.summary.exchanges).toBe(all.length);
      expect(merged.summary.exercised + merged.summary.notExercised).toBe(coverageItems.length);
    }),
    { seed: 21, numRuns: 200 },
  );
});

test('senders are merged by key, counts summed, most first, capped as the recorder caps them', () => {
  // Part a: key-0 three times and key-1 once; part b: key-1 three times, then 30 keys once each.
  const at = start;
  const a = recordOf([
    ...Array.from(
      { length: 3 },
      () => ({ operationId: 'getPet', status: 404, keyId: 'key-0', at }) as const,
    ),
    { operationId: 'getPet', status: 404, keyId: 'key-1', at },
  ]);
  const b = recordOf([
    ...Array.from(
      { length: 3 },
      () => ({ operationId: 'getPet', status: 404, keyId: 'key-1', at }) as const,
    ),
    ...Array.from({ length: 30 }, (_, index) => ({
      operationId: 'getPet' as const,
      status: 404,
      keyId: `key-${index + 2}`,
      at,
    })),
  ]);
  const item = mergeCoverage([a, b]).items.find((each) => each.id === 'getPet 404');
  expect(item?.count).toBe(37);
  expect(item?.by).toHaveLength(maxSenders);
  expect(item?.by.slice(0, 3)).toEqual([
    { keyId: 'key-1', count: 4 },
    { keyId: 'key-0', count: 3 },
    { keyId: 'key-2', count: 1 },
  ]);
});

test("a harness run's skipped item stays skipped, with its reasons, only while no part exercised it", () => {
  const now = start + 60_000;
  const skips = (reason: string) =>
    new Map([
      ['limits.ban', reason],
      ['getPet 404', reason],
    ]);
  const skippedA = createCoverageRecorder().record('harness', now, skips('no check sends it'));
  const skippedB = createCoverageRecorder().record('harness', now, skips('writes are off'));
  const plain = createCoverageRecorder().record('harness', now);
  const exercising = createCoverageRecorder();
  exercising.see(exchange({ operationId: 'getPet', status: 404, keyId: 'k', at: start }));
  const merged = mergeCoverage([skippedA, plain, skippedB, exercising.record('harness', now)]);
  const byId = (id: string) => merged.items.find((item) => item.id === id);
  expect(byId('limits.ban')).toMatchObject({
    status: 'skipped',
    count: 0,
    reason: 'no check sends it; writes are off',
  });
  expect(byId('getPet 404')).toMatchObject({ status: 'exercised', count: 1 });
  expect(byId('getPet 404')?.reason).toBeUndefined();
  expect(merged.summary).toMatchObject({ skipped: 1, exchanges: 1 });
});

test('records of another schema, another source or other items, or none at all, throw a CoverageMergeError', () => {
  const record = recordOf([]);
  const cases: [readonly CoverageRecord[], RegExp][] = [
    [[], /^petstore-fake: mergeCoverage: no records to merge/],
    [
      [record, { ...record, schema: 'petstore-coverage/2' as 'petstore-coverage/1' }],
      /record 1 has schema "petstore-coverage\/2"; this petstore-fake merges petstore-coverage\/1/,
    ],
    [[record, { ...record, source: 'proxy' }], /record 1 is the proxy's, record 0 the fake's/],
    [
      [record, { ...record, items: record.items.slice(1) }],
      /record 1 lists other items than record 0 \(listPets 401, .*\); records of two versions/,
    ],
  ];
  for (const [records, message] of cases) {
    expect(() => mergeCoverage(records)).toThrow(CoverageMergeError);
    expect(() => mergeCoverage(records)).toThrow(message);
  }
});
