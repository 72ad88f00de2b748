/**
 * The request journal's store: every request the fake answered, as plain records, bounded in
 * count and in bytes whatever clients send (the oldest go first, and are counted), read through
 * a filter newest arrival first and redacted where it is read, as every output of the fake is
 * (redaction.ts). It knows records, not requests: journal-step.ts makes them.
 */
import { isCount, isJsonObject } from '../../base/contract/lossless-json.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import { SessionStateError } from '../../pipeline/session.ts';
import { type JournalAnswer, type JournalEntry, journalHeaders } from './journal-entry.ts';
import { type CheckedFilter, mismatches } from './journal-filter.ts';
import { createRecordRing, type JournalRecord, recordsOfColumns } from './record-ring.ts';

export type { JournalRecord } from './record-ring.ts';

/** The journal's bounds. */
export type JournalBounds = JournalAnswer['bounds'];

/**
 * What a record costs beyond its strings, counted against `maxBytes`: about what its field names,
 * times and numbers add to its JSON, so the bound holds for what a reader is sent too.
 */
const entryOverhead = 640;

/** What a record counts against the journal's bytes. */
function sizeOf(record: JournalRecord): number {
  // The four names a record's headers may have (the step and a saved record's check keep them
  // to these), read by name: no array or enumeration per request.
  const { headers } = record;
  return (
    entryOverhead +
    record.method.length +
    record.path.length +
    record.query.length +
    record.keyId.length +
    record.clientId.length +
    record.connection.length +
    (record.breaks?.length ?? 0) +
    (record.body?.length ?? 0) +
    (headers['X-RateLimit-Limit']?.length ?? 0) +
    (headers['X-RateLimit-Remaining']?.length ?? 0) +
    (headers['X-RateLimit-Reset']?.length ?? 0) +
    (headers['Retry-After']?.length ?? 0)
  );
}

/** The request journal of one fake. */
export interface Journal {
  readonly bounds: JournalBounds;
  /**
   * The entry number of the request that arrived `arrival`-th at the fake; 0 or less for one
   * that arrived before the journal was last cleared.
   */
  seqOf(arrival: number): number;
  /** Keeps a record, letting the oldest go while the journal is past a bound. */
  add(record: JournalRecord): void;
  /** The entries a checked filter picks, redacted, newest arrival first. */
  read(filter: CheckedFilter): JournalAnswer;
  clear(): void;
  /** A count that moves whenever the journal changes (the session saves it again only then). */
  changes(): number;
  save(): unknown;
  /** Checks a saved journal whole; returns the change that puts it back. */
  load(saved: unknown): () => void;
}

/** The entry a record shows, before redaction. */
function entryOf(record: JournalRecord): JournalEntry {
  const { seq, atMs, realMs, breaks, ...fields } = record;
  // The times first, as a reader looks for them.
  return {
    seq,
    at: new Date(atMs).toISOString(),
    atMs,
    realAt: new Date(realMs).toISOString(),
    ...fields,
    breaks: breaks === null ? [] : breaks.split('\n'),
  };
}

/**
 * Creates an empty journal within `bounds`, read through `redaction`, numbering requests by
 * their arrival at the fake (`arrivals`: how many have arrived so far).
 */
export function createJournal(
  bounds: JournalBounds,
  redaction: Redaction,
  arrivals: () => number,
): Journal {
  /** In the order they were answered, the oldest first. */
  let ring = createRecordRing(bounds.maxEntries);
  let bytes = 0;
  let dropped = 0;
  // The arrivals before entry #1: moved by a clear, and by a load to go on after its entries.
  let base = arrivals();
  let changes = 0;

  const empty = () => {
    ring = createRecordRing(bounds.maxEntries);
    bytes = 0;
    dropped = 0;
    changes += 1;
  };

  return {
    bounds,
    seqOf: (arrival) => arrival - base,
    add(record) {
      const size = sizeOf(record);
      // The oldest go first, until the record fits both bounds.
      while (
        ring.count > 0 &&
        (ring.count >= bounds.maxEntries || bytes + size > bounds.maxBytes)
      ) {
        bytes -= ring.dropOldest();
        dropped += 1;
      }
      ring.push(record, size);
      bytes += size;
      changes += 1;
    },
    read(filter) {
      // Records are filtered as they are kept; only those shown become entries (dates, breaks).
      const matching = ring.records().filter((record) => mismatches(record, filter).length === 0);
      matching.sort((a, b) => b.seq - a.seq);
      const shown = filter.limit === undefined ? matching : matching.slice(0, filter.limit);
      return {
        total: matching.length,
        // Redacted where it is written: the path, the query, the body, the client id.
        requests: redaction.json(shown.map(entryOf)),
        dropped,
        bounds: { ...bounds },
      };
    },
    clear() {
      empty();
      // Numbered from 1 again: after a reset, #1 is the first request the test made.
      base = arrivals();
    },
    changes: () => changes,
    save: () => ({ columns: ring.columns(), dropped, arrivals: arrivals() - base }),
    load(saved) {
      if (saved === undefined) return empty;
      const records = isJsonObject(saved) ? recordsOfColumns(saved.columns) : undefined;
      if (!isJsonObject(saved) || records === undefined)
        throw new SessionStateError(
          'is not {"columns": {field: [...], ...} of one length, "dropped": n, "arrivals": n}',
        );
      if (!isCount(saved.dropped) || !isCount(saved.arrivals))
        throw new SessionStateError('dropped and arrivals must be whole numbers');
      const loaded = records.map(checkedRecord);
      const keptBytes = loaded.reduce((sum, record) => sum + sizeOf(record), 0);
      if (loaded.length > bounds.maxEntries || keptBytes > bounds.maxBytes)
        throw new SessionStateError(
          `holds more than ${bounds.maxEntries} records or ${bounds.maxBytes} bytes`,
        );
      const { dropped: keptDropped, arrivals: keptArrivals } = saved;
      return () => {
        empty();
        for (const record of loaded) ring.push(record, sizeOf(record));
        bytes = keptBytes;
        dropped = keptDropped;
        // Never back: a request arriving after the load is numbered after every kept one.
        const numbered = Math.max(
          arrivals() - base,
          keptArrivals,
          ...loaded.map((record) => record.seq),
        );
        base = arrivals() - numbered;
      };
    },
  };
}

/**
 * A saved record (as recordsOfColumns rebuilt it: a record's fields and nothing else) checked
 * field by field; a value the journal never writes is refused.
 */
function checkedRecord(value: unknown): JournalRecord {
  const fail = (problem: string): never => {
    throw new SessionStateError(`has a record whose ${problem}`);
  };
  if (!isJsonObject(value)) return fail('is not an object');
  if (!isCount(value.seq)) fail('seq is not a whole number');
  // Within Date's range (ECMA-262 21.4.1.22), so each has an ISO form to show.
  for (const field of ['atMs', 'realMs', 'durationMs'] as const)
    if (typeof value[field] !== 'number' || !(Math.abs(value[field] as number) <= 8.64e15))
      fail(`${field} is not a time in Date's range`);
  for (const field of ['method', 'path', 'query', 'keyId', 'clientId', 'connection'] as const)
    if (typeof value[field] !== 'string' || (value[field] as string).length > 16_384)
      fail(`${field} is not text of at most 16384 characters`);
  for (const field of ['forced', 'chaos', 'stubbed', 'dropped', 'refusedEarly', 'bodyTruncated'])
    if (typeof value[field] !== 'boolean') fail(`${field} is not true or false`);
  if (
    !Number.isInteger(value.status) ||
    (value.status as number) < 100 ||
    (value.status as number) > 599
  )
    fail('status is not a whole number from 100 to 599');
  for (const field of ['operationId', 'errorCode', 'breaks', 'body'] as const)
    if (value[field] !== null && typeof value[field] !== 'string')
      fail(`${field} is neither text nor null`);
  if (value.bodyBytes !== null && !isCount(value.bodyBytes))
    fail('bodyBytes is neither a whole number nor null');
  const { headers } = value;
  if (
    !isJsonObject(headers) ||
    Object.entries(headers).some(
      ([name, each]) =>
        !(journalHeaders as readonly string[]).includes(name) ||
        typeof each !== 'string' ||
        each.length > 256,
    )
  )
    fail(`headers are not text under ${journalHeaders.join(', ')}`);
  return value as JournalRecord;
}
