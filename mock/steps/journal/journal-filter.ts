/**
 * Which journal entries a reader asks for: the filter of `GET /__control/requests`,
 * `fake.control.requests()` and `expectRequests`, checked whole (a bad value names the valid
 * ones), and the match of one entry, field by field, so a near miss can say which field differed
 * (WireMock's near misses: an entry that matches all but one field of the pattern).
 */
import { operationIds } from '../../base/contract/schemas.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import type { JournalEntry } from './journal-entry.ts';

/** What to pick from the journal; every field given must match (all of them: AND). */
export interface JournalFilter {
  /** The request's method, e.g. `POST` (any case). */
  readonly method?: string;
  /** The operation the request was routed to, or `none` for one that reached no operation. */
  readonly operationId?: string;
  /** A prefix of the request's path, e.g. `/v1/pets` (the query is not part of it). */
  readonly path?: string;
  /** The answer's status (`429`), or a class of them (`4xx`). */
  readonly status?: number | string;
  /** The key id (never the key): `-` for no key, `unknown` for a key that matched none. */
  readonly keyId?: string;
  /** The client id: `X-Client-Id`, else `User-Agent`, else `-`. */
  readonly clientId?: string;
  /** Arrived at or after this time on the fake's clock: epoch ms or an ISO date. */
  readonly since?: number | string;
  /** Arrived before this time on the fake's clock: epoch ms or an ISO date. */
  readonly until?: number | string;
  /**
   * Arrived after the request whose `seq` this is: "the requests after that one", whatever the
   * clock says (a frozen clock gives them all one time).
   */
  readonly afterSeq?: number | string;
  /** At most this many entries, newest arrival first (the `total` counts every match). */
  readonly limit?: number | string;
}

/** A filter checked and put in the form entries are matched with. */
export type CheckedFilter = Pick<
  JournalFilter,
  'method' | 'operationId' | 'path' | 'keyId' | 'clientId'
> & {
  /** An exact status, or its first digit for a class (`4` for `4xx`). */
  readonly status?: { readonly exact: number } | { readonly hundreds: number };
  readonly since?: number;
  readonly until?: number;
  readonly afterSeq?: number;
  readonly limit?: number;
};

/** The methods a filter may name: those of RFC 9110 section 9 and PATCH (RFC 5789). */
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];

/** Most entries a `limit` may ask for: more than any journal holds. */
const maxLimit = 100_000;

function quoted(value: unknown): string {
  return JSON.stringify(String(value).slice(0, 64));
}

function refuse(problem: string): never {
  throw new ControlInputError(`requests filter: ${problem}`);
}

/** A time on the fake's clock: epoch ms (a number, or digits over HTTP) or an ISO date. */
function timeOf(value: unknown, field: string): number {
  const ms =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d+$/.test(value)
        ? Number(value)
        : typeof value === 'string'
          ? Date.parse(value)
          : Number.NaN;
  // Date's own range (ECMA-262 21.4.1.22): a time outside it has no ISO form to show.
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    refuse(
      `${field} must be epoch milliseconds or an ISO date such as 2026-06-01T12:00:00Z; got ${quoted(value)}`,
    );
  return ms;
}

function statusOf(value: unknown): CheckedFilter['status'] {
  const text = String(value).trim();
  const klass = /^([1-5])xx$/i.exec(text);
  if (klass !== null) return { hundreds: Number(klass[1]) };
  const exact =
    typeof value === 'number' ? value : /^\d{3}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(exact) || exact < 100 || exact > 599)
    refuse(`status must be a status from 100 to 599 or a class 1xx to 5xx; got ${quoted(value)}`);
  return { exact };
}

/** A whole number from `min` to `max`, given as a number or as digits over HTTP. */
function wholeOf(value: unknown, min: number, max: number, problem: string): number {
  const whole =
    typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(whole) || whole < min || whole > max)
    refuse(`${problem}; got ${quoted(value)}`);
  return whole;
}

function textOf(value: unknown, field: string, longest: number): string {
  if (typeof value !== 'string' || value === '' || value.length > longest)
    refuse(`${field} must be text of 1 to ${longest} characters; got ${quoted(value)}`);
  return value;
}

/** Each field a filter may have, in the order a near miss names them, and its check. */
const fieldChecks: Readonly<Record<keyof JournalFilter, (value: unknown) => unknown>> = {
  method(value) {
    const method = String(value).toUpperCase();
    if (!methods.includes(method))
      refuse(`method must be one of ${methods.join(', ')}; got ${quoted(value)}`);
    return method;
  },
  operationId(value) {
    if (value !== 'none' && !(operationIds as readonly unknown[]).includes(value))
      refuse(`operationId must be one of ${operationIds.join(', ')}, none; got ${quoted(value)}`);
    return value;
  },
  path(value) {
    const path = textOf(value, 'path', 2048);
    if (!path.startsWith('/'))
      refuse(`path must be a path prefix starting with /, e.g. /v1/pets; got ${quoted(value)}`);
    return path;
  },
  status: statusOf,
  keyId: (value) => textOf(value, 'keyId', 64),
  clientId: (value) => textOf(value, 'clientId', 64),
  since: (value) => timeOf(value, 'since'),
  until: (value) => timeOf(value, 'until'),
  afterSeq: (value) =>
    wholeOf(
      value,
      0,
      Number.MAX_SAFE_INTEGER,
      "afterSeq must be a request's seq, a whole number from 0",
    ),
  limit: (value) =>
    wholeOf(value, 1, maxLimit, `limit must be a whole number from 1 to ${maxLimit}`),
};
const filterFields = Object.keys(fieldChecks);

/**
 * Checks a filter whole (an object from `fake.control`, or the query of `GET /__control/requests`
 * as text by name) and throws a ControlInputError naming the field and its valid values; nothing
 * is read before every field passed.
 */
export function checkJournalFilter(given: unknown): CheckedFilter {
  if (given === undefined || given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given))
    refuse('must be an object of filter fields');
  const checked: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!filterFields.includes(field))
      refuse(`unknown field ${quoted(field)}; the filters are ${filterFields.join(', ')}`);
    checked[field] = fieldChecks[field as keyof JournalFilter](value);
  }
  return checked as CheckedFilter;
}

/** Why an entry is not picked, one line per filter field it fails (none: it matches). */
export function mismatches(
  entry: Pick<
    JournalEntry,
    'method' | 'operationId' | 'path' | 'status' | 'keyId' | 'clientId' | 'atMs' | 'seq'
  >,
  filter: CheckedFilter,
): string[] {
  const differs: string[] = [];
  if (filter.method !== undefined && entry.method !== filter.method)
    differs.push(`method is ${entry.method}, not ${filter.method}`);
  if (filter.operationId !== undefined && (entry.operationId ?? 'none') !== filter.operationId)
    differs.push(`operationId is ${entry.operationId ?? 'none'}, not ${filter.operationId}`);
  if (filter.path !== undefined && !entry.path.startsWith(filter.path))
    differs.push(`path is ${entry.path}, not under ${filter.path}`);
  const { status } = filter;
  if (status !== undefined) {
    const fits =
      'exact' in status
        ? entry.status === status.exact
        : Math.floor(entry.status / 100) === status.hundreds;
    if (!fits)
      differs.push(
        `status is ${entry.status}, not ${'exact' in status ? status.exact : `${status.hundreds}xx`}`,
      );
  }
  if (filter.keyId !== undefined && entry.keyId !== filter.keyId)
    differs.push(`keyId is ${entry.keyId}, not ${filter.keyId}`);
  if (filter.clientId !== undefined && entry.clientId !== filter.clientId)
    differs.push(`clientId is ${entry.clientId}, not ${filter.clientId}`);
  if (filter.since !== undefined && entry.atMs < filter.since)
    differs.push(
      `arrived at ${new Date(entry.atMs).toISOString()}, before since ${new Date(filter.since).toISOString()}`,
    );
  if (filter.until !== undefined && entry.atMs >= filter.until)
    differs.push(
      `arrived at ${new Date(entry.atMs).toISOString()}, not before until ${new Date(filter.until).toISOString()}`,
    );
  if (filter.afterSeq !== undefined && entry.seq <= filter.afterSeq)
    differs.push(`seq is ${entry.seq}, not after ${filter.afterSeq}`);
  return differs;
}
