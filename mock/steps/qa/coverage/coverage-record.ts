/**
 * A coverage record as it is written (docs/coverage.schema.json): each item of the interface with
 * its status, count, first and last example and senders, and a summary. The fake, the harness
 * and the proxy write it (interface-coverage.ts); merge-coverage.ts and coverage-formats.ts read it.
 */
import type { coverageSchemaVersion } from './coverage-items.ts';

/** An exchange shown as an example of an item. */
export interface CoverageExample extends Omit<CoverageSender, 'count'> {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** ISO time on the source's clock. */
  readonly at: string;
}

/** How often one sender exercised an item. */
export interface CoverageSender {
  readonly keyId?: string;
  readonly clientId?: string;
  readonly checkId?: string;
  readonly count: number;
}

/** One item's line in a record. */
export interface CoverageItemRecord {
  readonly id: string;
  readonly kind: 'status' | 'rule';
  readonly title: string;
  readonly source: string;
  /** `skipped`: a harness run chose not to exercise it; `reason` says why. */
  readonly status: 'exercised' | 'not-exercised' | 'skipped';
  readonly count: number;
  readonly first?: CoverageExample;
  readonly last?: CoverageExample;
  /** Per sender (key and client id, or check), most first, at most `maxSenders`. */
  readonly by: readonly CoverageSender[];
  readonly reason?: string;
}

/** What a coverage record says: the source, a summary, and every item. */
export interface CoverageRecord {
  readonly schema: typeof coverageSchemaVersion;
  readonly source: 'fake' | 'harness' | 'proxy';
  readonly generatedAt: string;
  readonly summary: {
    readonly items: number;
    readonly exercised: number;
    readonly notExercised: number;
    readonly skipped: number;
    /** Exchanges seen, whether or not they exercised an item. */
    readonly exchanges: number;
    /** Of those, answers QA stubbed whole, which exercise no item; only when there were any. */
    readonly stubbed?: number;
  };
  readonly items: readonly CoverageItemRecord[];
}

/** Most senders listed per item; the rest are counted in the item's `count` only. */
export const maxSenders = 20;

/** A record's summary of its items: how many are in each status, and the exchanges seen. */
export function coverageSummary(
  items: readonly CoverageItemRecord[],
  exchanges: number,
  stubbed = 0,
): CoverageRecord['summary'] {
  const exercised = items.filter((item) => item.status === 'exercised').length;
  const skipped = items.filter((item) => item.status === 'skipped').length;
  return {
    items: items.length,
    exercised,
    notExercised: items.length - exercised - skipped,
    skipped,
    exchanges,
    ...(stubbed > 0 ? { stubbed } : {}),
  };
}
