/**
 * Where the journal keeps its records: a ring of two strided arrays (a Float64Array for the
 * numbers and flags, an array for the strings), not one object per record. Records live for
 * about a thousand requests, long enough to be promoted to V8's old generation, which then grows
 * with the request rate; here a record leaves only its new strings behind, and a string equal to
 * the previous record's is kept once. Side by side with an array of record objects, resident
 * memory under load stays where it is with the journal off, at the same CPU within the noise
 * (bench/optimisations.md, "The structures built for the bench"). A record's fields sit side by
 * side, so writing one touches two or three cache lines; the ring grows by doubling up to its
 * capacity, so a journal bounded at a million costs nothing until it fills.
 */
import { type JournalEntry, journalHeaders } from './journal-entry.ts';

/**
 * One request as kept: the entry's fields, its times as numbers, its breaks one a line (`null`
 * for none), strings not yet redacted.
 */
export type JournalRecord = Omit<JournalEntry, 'at' | 'realAt' | 'breaks'> & {
  readonly realMs: number;
  readonly breaks: string | null;
};

/** Where each number of a record sits among its `numberStride` numbers. */
const numberAt = {
  seq: 0,
  atMs: 1,
  realMs: 2,
  durationMs: 3,
  /** NaN for `null`. */
  bodyBytes: 4,
  /** What the record counts against the journal's bytes. */
  size: 5,
  status: 6,
  /** One bit per flag: forced, chaos, stubbed, dropped, refusedEarly, bodyTruncated. */
  flags: 7,
} as const;
const numberStride = 8;

/** Where each string of a record sits among its `textStride` strings (`null`: none). */
const textAt = {
  method: 0,
  path: 1,
  query: 2,
  keyId: 3,
  clientId: 4,
  connection: 5,
  operationId: 6,
  errorCode: 7,
  breaks: 8,
  body: 9,
  /** The four journalled headers, in journalHeaders' order, from here on. */
  headers: 10,
} as const;
const textStride = 14;

/** The storage of `capacity` records. */
function slots(capacity: number) {
  return {
    capacity,
    numbers: new Float64Array(capacity * numberStride),
    texts: new Array<string | null>(capacity * textStride).fill(null),
  };
}

type Slots = ReturnType<typeof slots>;

/** A ring of records, oldest first, of at most `maxCapacity`. */
export interface RecordRing {
  readonly count: number;
  /** Keeps a record (the ring must not be full), counting `size` against it. */
  push(record: JournalRecord, size: number): void;
  /** Lets the oldest record go; answers what it counted. */
  dropOldest(): number;
  /** Every record, oldest first, as objects (for a read). */
  records(): JournalRecord[];
  /**
   * Every record, oldest first, as one array per field: what the session saves. A browser tab
   * clones and stores the session after every request, and a thousand objects of twenty fields
   * take much longer to clone than twenty arrays (bench/optimisations.md).
   */
  columns(): SavedColumns;
}

/** The records as one array per field (plain data, JSON and structured-clone safe). */
type SavedColumns = Record<string, readonly (string | number | boolean | null)[]>;

/** The fields a record has, in the order columns are saved. */
const recordFields = [
  'seq',
  'atMs',
  'realMs',
  'method',
  'path',
  'query',
  'operationId',
  'keyId',
  'clientId',
  'connection',
  'status',
  'errorCode',
  'breaks',
  'forced',
  'chaos',
  'stubbed',
  'dropped',
  'refusedEarly',
  'durationMs',
  'body',
  'bodyBytes',
  'bodyTruncated',
] as const;

/**
 * Saved columns back as one object per record, unchecked (the journal checks each): `undefined`
 * when they are not columns of one length.
 */
export function recordsOfColumns(saved: unknown): unknown[] | undefined {
  if (saved === null || typeof saved !== 'object' || Array.isArray(saved)) return undefined;
  const columns = saved as Record<string, unknown>;
  const all = [...recordFields, ...journalHeaders].map((name) => columns[name]);
  if (!all.every(Array.isArray)) return undefined;
  const length = (all[0] as unknown[]).length;
  if (!all.every((column) => (column as unknown[]).length === length)) return undefined;
  return Array.from({ length }, (_, index) => {
    const record: Record<string, unknown> = {};
    for (const name of recordFields) record[name] = (columns[name] as unknown[])[index];
    const headers: Record<string, unknown> = {};
    for (const name of journalHeaders) {
      const value = (columns[name] as unknown[])[index];
      if (value !== null) headers[name] = value;
    }
    record.headers = headers;
    return record;
  });
}

/**
 * `value`, or the equal string the record in slot `before` (-1: none) holds in the same field: a
 * client repeats its path, its body and most header values, and a repeat then leaves no new
 * string behind.
 */
function reused(
  texts: readonly (string | null)[],
  before: number,
  field: number,
  value: string | null,
): string | null {
  if (before === -1) return value;
  const kept = texts[before * textStride + field];
  return kept === value ? kept : value;
}

/** Creates an empty ring that holds up to `maxCapacity` records. */
export function createRecordRing(maxCapacity: number): RecordRing {
  let store: Slots = slots(Math.min(maxCapacity, 64));
  let head = 0;
  let count = 0;

  const at = (index: number) => (head + index) % store.capacity;

  /** Copies the ring, oldest first, into storage of a larger capacity. */
  const grow = () => {
    const kept = ring.records();
    const sizes = kept.map(
      (_, index) => store.numbers[at(index) * numberStride + numberAt.size] as number,
    );
    store = slots(Math.min(maxCapacity, store.capacity * 2));
    head = 0;
    count = 0;
    for (const [index, record] of kept.entries()) ring.push(record, sizes[index] as number);
  };

  const ring: RecordRing = {
    get count() {
      return count;
    },
    push(record, size) {
      if (count === store.capacity) {
        if (store.capacity >= maxCapacity)
          throw new Error('petstore-fake: the journal pushed a record into a full ring');
        grow();
      }
      writeRecord(store, at(count), count === 0 ? -1 : at(count - 1), record, size);
      count += 1;
    },
    dropOldest() {
      const size = store.numbers[head * numberStride + numberAt.size] as number;
      // Let its strings go now, not when the slot is next written (a loop the compiler keeps
      // inline: fill's builtin cost more for fourteen slots).
      const { texts } = store;
      for (let at = head * textStride, end = at + textStride; at < end; at++) texts[at] = null;
      head = (head + 1) % store.capacity;
      count -= 1;
      return size;
    },
    columns() {
      const kept = ring.records();
      const saved: Record<string, (string | number | boolean | null)[]> = {};
      for (const name of recordFields) saved[name] = kept.map((record) => record[name]);
      for (const name of journalHeaders)
        saved[name] = kept.map((record) => record.headers[name] ?? null);
      return saved;
    },
    records() {
      const out: JournalRecord[] = [];
      for (let index = 0; index < count; index++) out.push(readRecord(store, at(index)));
      return out;
    },
  };
  return ring;
}

/** Writes a record into `slot`, its strings reused from the record in `before` where equal. */
function writeRecord(
  store: Slots,
  slot: number,
  before: number,
  record: JournalRecord,
  size: number,
): void {
  const { numbers, texts } = store;
  const n = slot * numberStride;
  numbers[n + numberAt.seq] = record.seq;
  numbers[n + numberAt.atMs] = record.atMs;
  numbers[n + numberAt.realMs] = record.realMs;
  numbers[n + numberAt.durationMs] = record.durationMs;
  numbers[n + numberAt.bodyBytes] = record.bodyBytes ?? Number.NaN;
  numbers[n + numberAt.size] = size;
  numbers[n + numberAt.status] = record.status;
  numbers[n + numberAt.flags] =
    (record.forced ? 1 : 0) |
    (record.chaos ? 2 : 0) |
    (record.stubbed ? 4 : 0) |
    (record.dropped ? 8 : 0) |
    (record.refusedEarly ? 16 : 0) |
    (record.bodyTruncated ? 32 : 0);
  const t = slot * textStride;
  const { headers } = record;
  texts[t + textAt.method] = record.method;
  texts[t + textAt.path] = reused(texts, before, textAt.path, record.path);
  texts[t + textAt.query] = reused(texts, before, textAt.query, record.query);
  texts[t + textAt.keyId] = record.keyId;
  texts[t + textAt.clientId] = record.clientId;
  texts[t + textAt.connection] = record.connection;
  texts[t + textAt.operationId] = record.operationId;
  texts[t + textAt.errorCode] = record.errorCode;
  texts[t + textAt.breaks] = record.breaks;
  texts[t + textAt.body] = reused(texts, before, textAt.body, record.body);
  journalHeaders.forEach((name, which) => {
    const field = textAt.headers + which;
    texts[t + field] = reused(texts, before, field, headers[name] ?? null);
  });
}

/** The record in `slot`, as an object (for a read). */
function readRecord(store: Slots, slot: number): JournalRecord {
  const { numbers, texts } = store;
  const n = slot * numberStride;
  const t = slot * textStride;
  const text = (field: number) => texts[t + field] as string;
  const headers: Record<string, string> = {};
  journalHeaders.forEach((name, which) => {
    const value = texts[t + textAt.headers + which];
    if (value !== null && value !== undefined) headers[name] = value;
  });
  const bits = numbers[n + numberAt.flags] as number;
  const bodyBytes = numbers[n + numberAt.bodyBytes] as number;
  return {
    seq: numbers[n + numberAt.seq] as number,
    atMs: numbers[n + numberAt.atMs] as number,
    realMs: numbers[n + numberAt.realMs] as number,
    method: text(textAt.method),
    path: text(textAt.path),
    query: text(textAt.query),
    operationId: (texts[t + textAt.operationId] ?? null) as JournalRecord['operationId'],
    keyId: text(textAt.keyId),
    clientId: text(textAt.clientId),
    connection: text(textAt.connection),
    status: numbers[n + numberAt.status] as number,
    errorCode: texts[t + textAt.errorCode] ?? null,
    breaks: texts[t + textAt.breaks] ?? null,
    headers,
    forced: (bits & 1) !== 0,
    chaos: (bits & 2) !== 0,
    stubbed: (bits & 4) !== 0,
    dropped: (bits & 8) !== 0,
    refusedEarly: (bits & 16) !== 0,
    durationMs: numbers[n + numberAt.durationMs] as number,
    body: texts[t + textAt.body] ?? null,
    bodyBytes: Number.isNaN(bodyBytes) ? null : bodyBytes,
    bodyTruncated: (bits & 32) !== 0,
  };
}
