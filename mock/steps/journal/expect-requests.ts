/**
 * The test helper over the request journal, WireMock's `verify(count, pattern)`: fails a test
 * unless the fake saw a number of requests matching a filter ("exactly one POST after the 429"),
 * and its message lists what did come that nearly matched: every entry that matches all but one
 * field of the filter, and which field differs (WireMock's near misses). Throws a plain Error
 * subclass, so it works under any test runner; in the browser, where `fake.control` answers with
 * promises, it returns a promise.
 */
import { assertSupportedRuntime } from '../../base/runtime/supported-runtime.ts';
import type { JournalAnswer, JournalEntry } from './journal-entry.ts';
import { checkJournalFilter, type JournalFilter, mismatches } from './journal-filter.ts';

/** How many requests: exactly this many, or a range (either end may be left out). */
export type RequestCount = number | { readonly atLeast?: number; readonly atMost?: number };

/** An entry that matches every field of the filter but one. */
export interface NearMiss {
  readonly entry: JournalEntry;
  /** What differed, e.g. `status is 429, not 201`. */
  readonly differs: string;
}

/** The error `expectRequests` throws: what matched, and what nearly did. */
export class RequestCountError extends Error {
  override readonly name = 'RequestCountError';
  // Kept in # fields behind getters: a runner that prints an error's own fields (vitest, Node's
  // inspect) would otherwise dump every entry below the message, which lists them already.
  readonly #matched: readonly JournalEntry[];
  readonly #nearMisses: readonly NearMiss[];

  constructor(message: string, matched: readonly JournalEntry[], nearMisses: readonly NearMiss[]) {
    super(message);
    this.#matched = matched;
    this.#nearMisses = nearMisses;
  }

  /** The entries the filter picked. */
  get matched(): readonly JournalEntry[] {
    return this.#matched;
  }

  /** The entries that matched every field of the filter but one, with what differed. */
  get nearMisses(): readonly NearMiss[] {
    return this.#nearMisses;
  }
}

/** A fake whose `control.requests` reads its journal. */
type FakeWithJournal<Read> = { readonly control: { requests(filter?: JournalFilter): Read } };

/** Most entries a failure message lists, of each kind. */
const shownAtMost = 10;

function range(count: RequestCount): { readonly atLeast: number; readonly atMost: number } {
  const whole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  if (typeof count === 'number') {
    if (!whole(count))
      throw new TypeError(
        `petstore-fake: expectRequests count must be a whole number, got ${count}`,
      );
    return { atLeast: count, atMost: count };
  }
  const { atLeast = 0, atMost = Number.POSITIVE_INFINITY } = count ?? {};
  if (
    count === null ||
    typeof count !== 'object' ||
    (count.atLeast === undefined && count.atMost === undefined) ||
    !whole(atLeast) ||
    (count.atMost !== undefined && !whole(atMost)) ||
    atLeast > atMost
  )
    throw new TypeError(
      'petstore-fake: expectRequests count must be a whole number or { atLeast, atMost } of whole numbers with atLeast <= atMost',
    );
  return { atLeast, atMost };
}

function said(count: RequestCount): string {
  if (typeof count === 'number') return `exactly ${count}`;
  if (count.atMost === undefined) return `at least ${count.atLeast}`;
  if (count.atLeast === undefined) return `at most ${count.atMost}`;
  return `${count.atLeast} to ${count.atMost}`;
}

/** One entry on one line, as a failure lists it. */
function line(entry: JournalEntry): string {
  const marks = [
    entry.forced ? 'forced' : '',
    entry.chaos ? 'chaos' : '',
    entry.stubbed ? 'stubbed' : '',
    entry.dropped ? 'dropped' : '',
    entry.refusedEarly ? 'refused early' : '',
  ].filter(Boolean);
  return `#${entry.seq} ${entry.at} ${entry.method} ${entry.path}${entry.query} ${entry.status}${entry.errorCode === null ? '' : ` ${entry.errorCode}`} key=${entry.keyId} client=${entry.clientId}${marks.length === 0 ? '' : ` (${marks.join(', ')})`}`;
}

function judge(
  journal: JournalAnswer,
  filter: JournalFilter,
  count: RequestCount,
): readonly JournalEntry[] {
  const checked = checkJournalFilter(filter);
  const wanted = range(count);
  const matched: JournalEntry[] = [];
  const nearMisses: NearMiss[] = [];
  for (const entry of journal.requests) {
    const differs = mismatches(entry, checked);
    if (differs.length === 0) matched.push(entry);
    else if (differs.length === 1) nearMisses.push({ entry, differs: differs[0] as string });
  }
  if (matched.length >= wanted.atLeast && matched.length <= wanted.atMost) return matched;
  const shown = Object.entries(filter)
    .filter(([field, value]) => value !== undefined && field !== 'limit')
    .map(([field, value]) => `${field}=${String(value)}`)
    .join(' ');
  const lines = [
    `petstore-fake: expected ${said(count)} request${wanted.atMost === 1 ? '' : 's'} matching ${shown === '' ? 'any request' : shown}, but ${matched.length} came (of ${journal.requests.length} in the journal).`,
  ];
  if (journal.dropped > 0)
    lines.push(
      `The journal let ${journal.dropped} older request(s) go to stay within its bounds (createFake({ journal: { maxEntries } }) keeps more).`,
    );
  const list = (title: string, shown: readonly string[]) =>
    lines.push(
      title,
      ...shown.slice(0, shownAtMost).map((each) => `  ${each}`),
      ...(shown.length > shownAtMost ? [`  ... and ${shown.length - shownAtMost} more`] : []),
    );
  if (matched.length > 0) list('Matched:', matched.map(line));
  if (nearMisses.length > 0)
    list(
      'Near misses (all but one field match):',
      nearMisses.map(({ entry, differs }) => `${line(entry)}: ${differs}`),
    );
  else
    lines.push(
      journal.requests.length === 0
        ? 'No near misses: the journal is empty.'
        : `No near misses; the latest requests were:\n${journal.requests
            .slice(0, 5)
            .map((entry) => `  ${line(entry)}`)
            .join('\n')}`,
    );
  throw new RequestCountError(lines.join('\n'), matched, nearMisses);
}

/**
 * Throws a RequestCountError unless the fake's journal holds `count` requests matching `filter`
 * (every field given must match); returns them, newest arrival first.
 * @example expectRequests(fake, { method: 'POST', operationId: 'createPet', since: after429 }, 1);
 */
export function expectRequests(
  fake: FakeWithJournal<JournalAnswer>,
  filter: JournalFilter,
  count: RequestCount,
): readonly JournalEntry[];
/** In the browser, where `fake.control` answers with promises: resolves or rejects alike. */
export function expectRequests(
  fake: FakeWithJournal<Promise<JournalAnswer>>,
  filter: JournalFilter,
  count: RequestCount,
): Promise<readonly JournalEntry[]>;
export function expectRequests(
  fake: FakeWithJournal<JournalAnswer | Promise<JournalAnswer>>,
  filter: JournalFilter,
  count: RequestCount,
): readonly JournalEntry[] | Promise<readonly JournalEntry[]> {
  assertSupportedRuntime('expectRequests');
  if (filter.limit !== undefined)
    throw new TypeError(
      'petstore-fake: expectRequests counts every match; leave limit out of its filter',
    );
  // Checked before the journal is asked, so a bad filter fails the same way in every door.
  checkJournalFilter(filter);
  range(count);
  // The whole journal: near misses are the entries the filter does not pick.
  const journal = fake.control.requests();
  return journal instanceof Promise
    ? journal.then((read) => judge(read, filter, count))
    : judge(journal, filter, count);
}
