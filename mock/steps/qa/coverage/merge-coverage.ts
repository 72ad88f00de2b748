/**
 * One coverage record from several parts of one body of traffic: the test files of a vitest
 * suite (each file has its own modules, so its own fake and its own record), the shards of a CI
 * job. Each item reads as if one recorder had seen every part.
 */
import { assertSupportedRuntime } from '../../../base/runtime/supported-runtime.ts';
import { coverageSchemaVersion } from './coverage-items.ts';
import {
  type CoverageExample,
  type CoverageItemRecord,
  type CoverageRecord,
  type CoverageSender,
  coverageSummary,
  maxSenders,
} from './coverage-record.ts';

/** The error `mergeCoverage` throws when its records cannot be one record. */
export class CoverageMergeError extends Error {
  override readonly name = 'CoverageMergeError';
}

/** Senders of every part, counts summed, most first (ties in the parts' order), capped. */
function mergedSenders(parts: readonly CoverageItemRecord[]): CoverageSender[] {
  const senders = new Map<string, CoverageSender>();
  for (const { count, ...sender } of parts.flatMap((part) => part.by)) {
    const key = `${sender.keyId ?? ''}\n${sender.clientId ?? ''}\n${sender.checkId ?? ''}`;
    const seen = senders.get(key);
    senders.set(key, { ...sender, count: (seen?.count ?? 0) + count });
  }
  return [...senders.values()].sort((a, b) => b.count - a.count).slice(0, maxSenders);
}

/** The example of `candidates` that `wins` over the one so far (earliest, or latest). */
function pick(
  candidates: readonly (CoverageExample | undefined)[],
  wins: (candidate: number, sofar: number) => boolean,
): CoverageExample | undefined {
  let chosen: CoverageExample | undefined;
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    if (chosen === undefined || wins(Date.parse(candidate.at), Date.parse(chosen.at)))
      chosen = candidate;
  }
  return chosen;
}

/** One item's line from its line in every part (same id in each): exercised if any part was. */
function mergedItem(parts: readonly CoverageItemRecord[]): CoverageItemRecord {
  const [head] = parts as [CoverageItemRecord, ...CoverageItemRecord[]];
  const base = { id: head.id, kind: head.kind, title: head.title, source: head.source };
  if (parts.some((part) => part.status === 'exercised')) {
    const first = pick(
      parts.map((part) => part.first),
      (candidate, sofar) => candidate < sofar,
    );
    // Ties go to the later part: it was seen last.
    const last = pick(
      parts.map((part) => part.last),
      (candidate, sofar) => candidate >= sofar,
    );
    return {
      ...base,
      status: 'exercised',
      count: parts.reduce((sum, part) => sum + part.count, 0),
      ...(first === undefined ? {} : { first }),
      ...(last === undefined ? {} : { last }),
      by: mergedSenders(parts),
    };
  }
  const skipped = parts.filter((part) => part.status === 'skipped');
  // A part that skipped an item, and said why, outweighs one that merely never met it.
  if (skipped.length === 0) return { ...base, status: 'not-exercised', count: 0, by: [] };
  const reasons = [...new Set(skipped.flatMap((part) => part.reason ?? []))];
  return { ...base, status: 'skipped', count: 0, by: [], reason: reasons.join('; ') };
}

/**
 * Merges coverage records of one source (each test file's `fake.control.coverage()`, each
 * shard's harness record) into one, as if one recorder had seen all their traffic. Throws a
 * CoverageMergeError for no records, another schema, sources that differ, or item lists that
 * differ (records of two versions of the interface).
 * @example const suite = mergeCoverage(parts.map((part) => part.coverage));
 */
export function mergeCoverage(records: readonly CoverageRecord[]): CoverageRecord {
  assertSupportedRuntime('mergeCoverage');
  const [head] = records;
  if (head === undefined)
    throw new CoverageMergeError(
      'petstore-fake: mergeCoverage: no records to merge; pass one or more coverage records',
    );
  const ids = head.items.map((item) => item.id).join(', ');
  for (const [index, record] of records.entries()) {
    if (record.schema !== coverageSchemaVersion)
      throw new CoverageMergeError(
        `petstore-fake: mergeCoverage: record ${index} has schema ${JSON.stringify(record.schema)}; this petstore-fake merges ${coverageSchemaVersion} (write every part with the same petstore-fake)`,
      );
    if (record.source !== head.source)
      throw new CoverageMergeError(
        `petstore-fake: mergeCoverage: record ${index} is the ${record.source}'s, record 0 the ${head.source}'s; a record speaks for one source: merge each source's records on their own`,
      );
    const itemIds = record.items.map((item) => item.id).join(', ');
    if (itemIds !== ids)
      throw new CoverageMergeError(
        `petstore-fake: mergeCoverage: record ${index} lists other items than record 0 (${itemIds} against ${ids}); records of two versions of the interface do not merge`,
      );
  }
  const items = head.items.map((_, at) =>
    mergedItem(records.map((record) => record.items[at] as CoverageItemRecord)),
  );
  const generatedAt = records
    .map((record) => record.generatedAt)
    .reduce((latest, each) => (Date.parse(each) > Date.parse(latest) ? each : latest));
  return {
    schema: coverageSchemaVersion,
    source: head.source,
    generatedAt,
    summary: coverageSummary(
      items,
      records.reduce((sum, record) => sum + record.summary.exchanges, 0),
      records.reduce((sum, record) => sum + (record.summary.stubbed ?? 0), 0),
    ),
    items,
  };
}
