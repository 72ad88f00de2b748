/**
 * Where the journal keeps its records: a ring of columns (typed arrays for the numbers and flags,
 * arrays for the strings) rather than one object per record. A journal holds its records for
 * about a thousand requests, long enough for each to be promoted to V8's old generation: one
 * object (and a headers object) per request kept that long made the collector's old generation
 * grow with the request rate, and cost a request 10 to 13 µs of CPU under load (`npm run bench --
 * --only journal`); in columns, a record leaves only its few new strings behind. The ring grows
 * by doubling up to its capacity, so a journal bounded at a million costs nothing until it fills.
 */
import type { OperationId } from '../../base/contract/types.ts';
import type { JournalEntry } from './journal-entry.ts';

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
  /** The interface rules a stubbed answer breaks, one a line; `null` for none. */
  readonly breaks: string | null;
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

const texts = ['method', 'path', 'query', 'keyId', 'clientId', 'connection'] as const;
const maybeTexts = ['operationId', 'errorCode', 'breaks', 'body'] as const;
const headerNames = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
] as const;

/** The columns of `capacity` records. */
function columns(capacity: number) {
  const strings = () => new Array<string>(capacity).fill('');
  const maybe = () => new Array<string | null>(capacity).fill(null);
  return {
    capacity,
    seq: new Float64Array(capacity),
    atMs: new Float64Array(capacity),
    realMs: new Float64Array(capacity),
    durationMs: new Float64Array(capacity),
    /** NaN for `null`. */
    bodyBytes: new Float64Array(capacity),
    /** What each record counts against the journal's bytes. */
    size: new Float64Array(capacity),
    status: new Uint16Array(capacity),
    /** One bit per flag: forced, chaos, stubbed, dropped, refusedEarly, bodyTruncated. */
    flags: new Uint8Array(capacity),
    texts: Object.fromEntries(texts.map((name) => [name, strings()])) as Record<
      (typeof texts)[number],
      string[]
    >,
    maybeTexts: Object.fromEntries(maybeTexts.map((name) => [name, maybe()])) as Record<
      (typeof maybeTexts)[number],
      (string | null)[]
    >,
    headers: headerNames.map(maybe),
  };
}

type Columns = ReturnType<typeof columns>;

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
   * cost 2.7 ms to clone where twenty arrays cost 1.1 ms.
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
  const all = [...recordFields, ...headerNames].map((name) => columns[name]);
  if (!all.every(Array.isArray)) return undefined;
  const length = (all[0] as unknown[]).length;
  if (!all.every((column) => (column as unknown[]).length === length)) return undefined;
  return Array.from({ length }, (_, index) => {
    const record: Record<string, unknown> = {};
    for (const name of recordFields) record[name] = (columns[name] as unknown[])[index];
    const headers: Record<string, unknown> = {};
    for (const name of headerNames) {
      const value = (columns[name] as unknown[])[index];
      if (value !== null) headers[name] = value;
    }
    record.headers = headers;
    return record;
  });
}

/** A column of texts that may be absent. */
type Maybe = (string | null)[];

/**
 * `value`, or the equal string the record before holds (`before`: its slot, -1 for none). A
 * client repeats its path, its body and most header values: kept as the one string already in
 * the ring, a repeat leaves no new string behind, where each string a ring keeps for a thousand
 * requests is promoted to V8's old generation, which then grows with the request rate.
 */
function reused<Text extends string | null>(
  column: readonly Text[],
  before: number,
  value: Text,
): Text {
  if (before === -1) return value;
  const kept = column[before] as Text;
  return kept === value ? kept : value;
}

/** Creates an empty ring that holds up to `maxCapacity` records. */
export function createRecordRing(maxCapacity: number): RecordRing {
  let store: Columns = columns(Math.min(maxCapacity, 64));
  let head = 0;
  let count = 0;

  const at = (index: number) => (head + index) % store.capacity;

  /** Copies the ring, oldest first, into columns of a larger capacity. */
  const grow = () => {
    const kept = ring.records();
    const sizes = kept.map((_, index) => store.size[at(index)] as number);
    store = columns(Math.min(maxCapacity, store.capacity * 2));
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
      const slot = at(count);
      store.seq[slot] = record.seq;
      store.atMs[slot] = record.atMs;
      store.realMs[slot] = record.realMs;
      store.durationMs[slot] = record.durationMs;
      store.bodyBytes[slot] = record.bodyBytes ?? Number.NaN;
      store.size[slot] = size;
      store.status[slot] = record.status;
      // Field by field rather than loops over names: this runs on every request.
      store.flags[slot] =
        (record.forced ? 1 : 0) |
        (record.chaos ? 2 : 0) |
        (record.stubbed ? 4 : 0) |
        (record.dropped ? 8 : 0) |
        (record.refusedEarly ? 16 : 0) |
        (record.bodyTruncated ? 32 : 0);
      const { texts: text, maybeTexts: maybe, headers } = store;
      const before = count === 0 ? -1 : at(count - 1);
      text.method[slot] = record.method;
      text.path[slot] = reused(text.path, before, record.path);
      text.query[slot] = reused(text.query, before, record.query);
      text.keyId[slot] = record.keyId;
      text.clientId[slot] = record.clientId;
      text.connection[slot] = record.connection;
      maybe.operationId[slot] = record.operationId;
      maybe.errorCode[slot] = record.errorCode;
      maybe.breaks[slot] = record.breaks;
      maybe.body[slot] = reused(maybe.body, before, record.body);
      const [limit, remaining, reset, retryAfter] = headers as [Maybe, Maybe, Maybe, Maybe];
      limit[slot] = reused(limit, before, record.headers['X-RateLimit-Limit'] ?? null);
      remaining[slot] = reused(remaining, before, record.headers['X-RateLimit-Remaining'] ?? null);
      reset[slot] = reused(reset, before, record.headers['X-RateLimit-Reset'] ?? null);
      retryAfter[slot] = reused(retryAfter, before, record.headers['Retry-After'] ?? null);
      count += 1;
    },
    dropOldest() {
      const slot = head;
      const size = store.size[slot] as number;
      // Let its strings go now, not when the slot is next written; field by field, as in push.
      const { texts: text, maybeTexts: maybe, headers } = store;
      text.method[slot] = '';
      text.path[slot] = '';
      text.query[slot] = '';
      text.keyId[slot] = '';
      text.clientId[slot] = '';
      text.connection[slot] = '';
      maybe.operationId[slot] = null;
      maybe.errorCode[slot] = null;
      maybe.breaks[slot] = null;
      maybe.body[slot] = null;
      for (const column of headers) column[slot] = null;
      head = (head + 1) % store.capacity;
      count -= 1;
      return size;
    },
    columns() {
      const kept = ring.records();
      const saved: Record<string, (string | number | boolean | null)[]> = {};
      for (const name of recordFields) saved[name] = kept.map((record) => record[name]);
      for (const name of headerNames)
        saved[name] = kept.map((record) => record.headers[name] ?? null);
      return saved;
    },
    records() {
      const out: JournalRecord[] = [];
      for (let index = 0; index < count; index++) {
        const slot = at(index);
        const headers: Record<string, string> = {};
        store.headers.forEach((column, which) => {
          const value = column[slot];
          if (value !== null && value !== undefined) headers[headerNames[which] as string] = value;
        });
        const bits = store.flags[slot] as number;
        const bodyBytes = store.bodyBytes[slot] as number;
        out.push({
          seq: store.seq[slot] as number,
          atMs: store.atMs[slot] as number,
          realMs: store.realMs[slot] as number,
          method: store.texts.method[slot] as string,
          path: store.texts.path[slot] as string,
          query: store.texts.query[slot] as string,
          operationId: store.maybeTexts.operationId[slot] as OperationId | null,
          keyId: store.texts.keyId[slot] as string,
          clientId: store.texts.clientId[slot] as string,
          connection: store.texts.connection[slot] as string,
          status: store.status[slot] as number,
          errorCode: store.maybeTexts.errorCode[slot] ?? null,
          breaks: store.maybeTexts.breaks[slot] ?? null,
          headers,
          forced: (bits & 1) !== 0,
          chaos: (bits & 2) !== 0,
          stubbed: (bits & 4) !== 0,
          dropped: (bits & 8) !== 0,
          refusedEarly: (bits & 16) !== 0,
          durationMs: store.durationMs[slot] as number,
          body: store.maybeTexts.body[slot] ?? null,
          bodyBytes: Number.isNaN(bodyBytes) ? null : bodyBytes,
          bodyTruncated: (bits & 32) !== 0,
        });
      }
      return out;
    },
  };
  return ring;
}
