/**
 * The request journal's store: every request the fake answered, as plain records, bounded in
 * count and in bytes whatever clients send (the oldest go first, and are counted), read through
 * a filter newest arrival first and redacted where it is read, as every output of the fake is
 * (redaction.ts). It knows records, not requests: journal-step.ts makes them.
 */
import { isCount, isJsonObject } from '../../base/contract/lossless-json.ts';
import type { OperationId } from '../../base/contract/types.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import { SessionStateError } from '../../pipeline/session.ts';
import { type JournalAnswer, type JournalEntry, journalHeaders } from './journal-entry.ts';
import { type CheckedFilter, mismatches } from './journal-filter.ts';

/** One request as kept: the entry's fields, times as numbers, strings not yet redacted. */
export interface JournalRecord {
  readonly seq: number;
  readonly atMs: number;
  readonly realMs: number;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly operationId: OperationId | null;
  readonly keyId: string;
  readonly clientId: string;
  readonly connection: string;
  readonly status: number;
  readonly errorCode: string | null;
  readonly headers: JournalEntry['headers'];
  readonly forced: boolean;
  readonly chaos: boolean;
  readonly stubbed: boolean;
  readonly dropped: boolean;
  readonly refusedEarly: boolean;
  readonly durationMs: number;
  readonly body: string | null;
  readonly bodyBytes: number | null;
  readonly bodyTruncated: boolean;
}

/** The journal's bounds. */
export interface JournalBounds {
  readonly maxEntries: number;
  /** Characters of every record's strings, plus 640 a record (its JSON's field names and numbers). */
  readonly maxBytes: number;
  /** Most characters of a body kept. */
  readonly bodyChars: number;
}

/**
 * What a record costs beyond its strings, counted against `maxBytes`: about what its field names,
 * times and numbers add to its JSON, so the bound holds for what a reader is sent too.
 */
const entryOverhead = 640;

/** What a record counts against the journal's bytes. */
function sizeOf(record: JournalRecord): number {
  let size =
    entryOverhead +
    record.method.length +
    record.path.length +
    record.query.length +
    record.keyId.length +
    record.clientId.length +
    record.connection.length +
    (record.body?.length ?? 0);
  for (const value of Object.values(record.headers)) size += value.length;
  return size;
}

/** The request journal of one fake. */
export interface Journal {
  readonly bounds: JournalBounds;
  /** Numbers the next request to arrive. */
  arrive(): number;
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
  const { seq, atMs, realMs, ...fields } = record;
  // The times first, as a reader looks for them.
  return {
    seq,
    at: new Date(atMs).toISOString(),
    atMs,
    realAt: new Date(realMs).toISOString(),
    ...fields,
  };
}

/** Creates an empty journal within `bounds`, read through `redaction`. */
export function createJournal(bounds: JournalBounds, redaction: Redaction): Journal {
  /**
   * In the order they were answered, the oldest first, from `head` on: letting the oldest go
   * moves `head` (a splice of a full journal moved every record, 16 µs a request), and the array
   * is cut once half of it is gone.
   */
  let records: (JournalRecord | undefined)[] = [];
  let head = 0;
  let bytes = 0;
  let dropped = 0;
  let arrivals = 0;
  let changes = 0;

  const kept = (): JournalRecord[] => records.slice(head) as JournalRecord[];

  const trim = () => {
    while (records.length - head > bounds.maxEntries || bytes > bounds.maxBytes) {
      bytes -= sizeOf(records[head] as JournalRecord);
      records[head] = undefined;
      head += 1;
      dropped += 1;
    }
    if (head > 1024 && head * 2 > records.length) {
      records = records.slice(head);
      head = 0;
    }
  };

  return {
    bounds,
    arrive: () => ++arrivals,
    add(record) {
      records.push(record);
      bytes += sizeOf(record);
      changes += 1;
      trim();
    },
    read(filter) {
      const matching: JournalEntry[] = [];
      for (const record of kept()) {
        const entry = entryOf(record);
        if (mismatches(entry, filter).length === 0) matching.push(entry);
      }
      matching.sort((a, b) => b.seq - a.seq);
      const shown = filter.limit === undefined ? matching : matching.slice(0, filter.limit);
      return {
        total: matching.length,
        // Redacted where it is written: the path, the query, the body, the client id.
        requests: redaction.json(shown),
        dropped,
        bounds: { ...bounds },
      };
    },
    clear() {
      records = [];
      head = 0;
      bytes = 0;
      dropped = 0;
      // Numbered from 1 again: after a reset, #1 is the first request the test made.
      arrivals = 0;
      changes += 1;
    },
    changes: () => changes,
    save: () => ({ records: kept(), dropped, arrivals }),
    load(saved) {
      if (saved === undefined)
        return () => {
          records = [];
          head = 0;
          bytes = 0;
          dropped = 0;
          changes += 1;
        };
      if (!isJsonObject(saved) || !Array.isArray(saved.records))
        throw new SessionStateError('is not {"records": [...], "dropped": n, "arrivals": n}');
      if (!isCount(saved.dropped) || !isCount(saved.arrivals))
        throw new SessionStateError('dropped and arrivals must be whole numbers');
      const loaded = saved.records.map(checkedRecord);
      const keptBytes = loaded.reduce((sum, record) => sum + sizeOf(record), 0);
      if (loaded.length > bounds.maxEntries || keptBytes > bounds.maxBytes)
        throw new SessionStateError(
          `holds more than ${bounds.maxEntries} records or ${bounds.maxBytes} bytes`,
        );
      const { dropped: keptDropped, arrivals: keptArrivals } = saved;
      return () => {
        records = loaded;
        head = 0;
        bytes = keptBytes;
        dropped = keptDropped;
        // Never back: a request arriving after the load is numbered after every kept one.
        arrivals = Math.max(arrivals, keptArrivals, ...loaded.map((record) => record.seq));
        changes += 1;
      };
    },
  };
}

const stringFields = ['method', 'path', 'query', 'keyId', 'clientId', 'connection'] as const;
const flagFields = [
  'forced',
  'chaos',
  'stubbed',
  'dropped',
  'refusedEarly',
  'bodyTruncated',
] as const;

/** A saved record checked field by field; a value the journal never writes is refused. */
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
  for (const field of stringFields)
    if (typeof value[field] !== 'string' || (value[field] as string).length > 16_384)
      fail(`${field} is not text of at most 16384 characters`);
  for (const field of flagFields)
    if (typeof value[field] !== 'boolean') fail(`${field} is not true or false`);
  if (!Number.isInteger(value.status)) fail('status is not a whole number');
  for (const field of ['operationId', 'errorCode', 'body'] as const)
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
  // Only the fields a record has: nothing else a saved value carried comes back.
  return {
    seq: value.seq as number,
    atMs: value.atMs as number,
    realMs: value.realMs as number,
    method: value.method as string,
    path: value.path as string,
    query: value.query as string,
    operationId: value.operationId as OperationId | null,
    keyId: value.keyId as string,
    clientId: value.clientId as string,
    connection: value.connection as string,
    status: value.status as number,
    errorCode: value.errorCode as string | null,
    headers: headers as JournalEntry['headers'],
    forced: value.forced as boolean,
    chaos: value.chaos as boolean,
    stubbed: value.stubbed as boolean,
    dropped: value.dropped as boolean,
    refusedEarly: value.refusedEarly as boolean,
    durationMs: value.durationMs as number,
    body: value.body as string | null,
    bodyBytes: value.bodyBytes as number | null,
    bodyTruncated: value.bodyTruncated as boolean,
  };
}
