/**
 * Interface coverage: which parts of the interface a body of traffic exercised. One model for
 * three sources (the fake, the contract harness, the harness's proxy): the items are every
 * operation x documented status of the OpenAPI document, plus the interface's named rules and
 * headers (the "Coverage items" section of openapi/interface.md, mirrored in `ruleItems`). A
 * recorder takes each exchange, in the words every source can give, and says which items it
 * exercised and by whom; `coverageRecord` turns that into the documented JSON record
 * (docs/coverage.schema.json).
 */
import { isCount, isJsonObject } from '../../../base/contract/lossless-json.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { coverageItems, coverageSchemaVersion, statusItemId } from './coverage-items.ts';

/** One exchange, in the words every source can give; the key itself never appears. */
export interface CoverageExchange {
  /** One of the interface's operations, or undefined for any other path. */
  readonly operationId: OperationId | undefined;
  readonly method: string;
  /**
   * Path and query as shown in reports (credentials already redacted), or what they are read
   * from when shown (a request's URL, or a function): only the first and last example of each
   * item are ever shown, so a source may defer it.
   */
  readonly path: string | URL | (() => string);
  /** The request's query parameters. */
  readonly query: URLSearchParams;
  readonly status: number;
  /** A response header by name (any case), or undefined. */
  header(name: string): string | undefined;
  /** Whether the body was a JSON Error (`code` string, `message` string, `status` integer). */
  readonly errorBody: boolean;
  /** When the request was sent, in epoch ms on the source's clock (Retry-After is read against it). */
  readonly at: number;
  /** Who sent it: the key's public id, the client id, the harness check. */
  readonly keyId?: string | undefined;
  readonly clientId?: string | undefined;
  readonly checkId?: string | undefined;
  /**
   * A whole answer QA stubbed in the fake's place: counted (`summary.stubbed`), but it exercises
   * no item, as it shows how the app met QA's answer, not the interface's.
   */
  readonly stubbed?: boolean;
}

/** An exchange shown as an example of an item. */
export interface CoverageExample {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** ISO time on the source's clock. */
  readonly at: string;
  readonly keyId?: string;
  readonly clientId?: string;
  readonly checkId?: string;
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
/**
 * Most keys (or clients, when no key) whose open Retry-After is followed at once; past it the
 * oldest is forgotten, so a flood of made-up client ids costs no memory.
 */
const maxOpenRetries = 1000;

/**
 * Whole seconds. Made once: a regular expression literal in a function is a new object each time
 * it is evaluated, and the reset header is read on every exchange.
 */
const digitsOnly = /^\d+$/;

/** Parses Retry-After (seconds or an HTTP date) into epoch ms after `at`, or undefined. */
function retryDeadline(value: string | undefined, at: number): number | undefined {
  if (value === undefined) return undefined;
  if (digitsOnly.test(value.trim())) return at + Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

/**
 * A recorder's memory of the last exchange's status item and reset header: the same operation,
 * status and reset text come again and again, and each answer below is a function of them alone.
 */
interface ItemMemo {
  operationId: OperationId | undefined;
  status: number;
  statusId: string;
  reset: string | undefined;
  resetIsTime: boolean;
}

function createItemMemo(): ItemMemo {
  return { operationId: undefined, status: 0, statusId: '', reset: undefined, resetIsTime: false };
}

/** `statusItemId`, looked up again only when the operation or the status changed. */
function memoStatusId(memo: ItemMemo, operationId: OperationId, status: number): string {
  if (operationId !== memo.operationId || status !== memo.status) {
    memo.statusId = statusItemId(operationId, status);
    memo.operationId = operationId;
    memo.status = status;
  }
  return memo.statusId;
}

/** Whether a reset header is a Unix time in seconds (past 2001, 1e9; a countdown is small). */
function memoResetIsTime(memo: ItemMemo, reset: string): boolean {
  if (reset !== memo.reset) {
    memo.resetIsTime = digitsOnly.test(reset.trim()) && Number(reset) >= 1e9;
    memo.reset = reset;
  }
  return memo.resetIsTime;
}

/** Which items one exchange exercises, given the key's open Retry-After (if any). */
function itemsOf(
  exchange: CoverageExchange,
  retryUntil: number | undefined,
  memo: ItemMemo,
): string[] {
  // The header reader is called as a method: a source may give it as one (coverage-step.ts).
  const { operationId, status, query } = exchange;
  const ids: string[] = [];
  if (operationId !== undefined) ids.push(memoStatusId(memo, operationId, status));
  const limit = exchange.header('x-ratelimit-limit');
  const remaining = exchange.header('x-ratelimit-remaining');
  const reset = exchange.header('x-ratelimit-reset');
  if (limit !== undefined && remaining !== undefined && reset !== undefined)
    ids.push('headers.rateLimit');
  if (reset !== undefined && memoResetIsTime(memo, reset)) ids.push('headers.rateLimitReset');
  if (status === 429 && exchange.header('retry-after') !== undefined) ids.push('limits.retryAfter');
  if (retryUntil !== undefined)
    ids.push(exchange.at >= retryUntil ? 'limits.retryAfterHonoured' : 'limits.ban');
  if (status === 401 && exchange.header('www-authenticate') !== undefined)
    ids.push('auth.challenge');
  if (
    operationId === 'getPet' &&
    exchange.header('deprecation') !== undefined &&
    exchange.header('sunset') !== undefined &&
    exchange.header('link') !== undefined
  )
    ids.push('getPet.deprecation');
  if (operationId === 'listPets') {
    const limitParam = query.get('limit');
    if (limitParam === null) ids.push('listPets.defaultPage');
    else if (!(Number(limitParam) > 1 && Number(limitParam) < 100)) ids.push('listPets.pageBounds');
    if (query.has('status')) ids.push('listPets.statusFilter');
  }
  if (status >= 400 && exchange.errorBody) ids.push('errors.body');
  return ids;
}

/** An example as seen: its path and time are formatted only when a record shows it. */
interface SeenExample {
  readonly method: string;
  readonly path: string | URL | (() => string);
  readonly status: number;
  readonly at: number;
  readonly sender: Omit<CoverageSender, 'count'>;
}

/** An example's path and query as text. */
function pathText(path: SeenExample['path']): string {
  if (typeof path === 'string') return path;
  return typeof path === 'function' ? path() : `${path.pathname}${path.search}`;
}

function shown(seen: SeenExample): CoverageExample {
  return {
    method: seen.method,
    path: pathText(seen.path),
    status: seen.status,
    at: new Date(seen.at).toISOString(),
    ...seen.sender,
  };
}

interface Tally {
  count: number;
  first?: SeenExample;
  last?: SeenExample;
  readonly senders: Map<string, { sender: Omit<CoverageSender, 'count'>; count: number }>;
}

/** Collects exchanges into coverage; one per source, cleared on a fake's reset. */
export interface CoverageRecorder {
  /** Records one exchange; returns the ids of the items it exercised. */
  see(exchange: CoverageExchange): readonly string[];
  /** The record so far; `skipped` maps an item id to why a run chose not to exercise it. */
  record(
    source: CoverageRecord['source'],
    now: number,
    skipped?: ReadonlyMap<string, string>,
  ): CoverageRecord;
  /** Forgets everything seen. */
  clear(): void;
  /** What it has seen, as plain data, to take it elsewhere (browser storage) and back. */
  save(): SavedCoverage;
  /**
   * Checks what `save` returned whole, and gives the change that puts it back, or the problem
   * that keeps it from being read (nothing is changed then).
   */
  load(saved: unknown): { readonly apply: () => void } | { readonly problem: string };
}

/** An example as saved: its path made text. */
interface SavedExample extends Omit<SeenExample, 'path'> {
  readonly path: string;
}

/** A recorder's state as plain data. */
interface SavedCoverage {
  readonly exchanges: number;
  readonly stubbed: number;
  readonly retryUntil: readonly (readonly [who: string, until: number])[];
  readonly tallies: readonly (readonly [
    id: string,
    {
      readonly count: number;
      readonly first?: SavedExample;
      readonly last?: SavedExample;
      readonly senders: readonly (readonly [
        key: string,
        { readonly sender: Omit<CoverageSender, 'count'>; readonly count: number },
      ])[];
    },
  ])[];
}

const itemIds = new Set(coverageItems.map((item) => item.id));

function isSender(value: unknown): value is Omit<CoverageSender, 'count'> {
  return (
    isJsonObject(value) &&
    Object.entries(value).every(
      ([field, text]) =>
        (field === 'keyId' || field === 'clientId' || field === 'checkId') &&
        typeof text === 'string',
    )
  );
}

function isExample(value: unknown): value is SavedExample {
  return (
    isJsonObject(value) &&
    typeof value.method === 'string' &&
    typeof value.path === 'string' &&
    isCount(value.status) &&
    isCount(value.at) &&
    isSender(value.sender)
  );
}

/** Why a saved recorder state cannot be read, or the tallies it holds. */
function savedTallies(saved: unknown): { problem: string } | { tallies: Map<string, Tally> } {
  if (!isJsonObject(saved) || !Array.isArray(saved.tallies))
    return { problem: 'is not {"exchanges", "retryUntil", "tallies"}' };
  const tallies = new Map<string, Tally>();
  for (const entry of saved.tallies as unknown[]) {
    const [id, tally] = Array.isArray(entry) ? entry : [];
    if (typeof id !== 'string' || !itemIds.has(id) || !isJsonObject(tally))
      return { problem: `has a tally of no coverage item (${String(id).slice(0, 40)})` };
    const senders = Array.isArray(tally.senders) ? (tally.senders as unknown[]) : [];
    if (
      !isCount(tally.count) ||
      (tally.first !== undefined && !isExample(tally.first)) ||
      (tally.last !== undefined && !isExample(tally.last)) ||
      senders.length > maxSenders * 4
    )
      return { problem: `has a tally of ${id} that is not a count, examples and senders` };
    const bySender = new Map<string, { sender: Omit<CoverageSender, 'count'>; count: number }>();
    for (const pair of senders) {
      const [key, seen] = Array.isArray(pair) ? pair : [];
      if (
        typeof key !== 'string' ||
        !isJsonObject(seen) ||
        !isSender(seen.sender) ||
        !isCount(seen.count)
      )
        return { problem: `has a sender of ${id} that is not [key, {sender, count}]` };
      bySender.set(key, { sender: seen.sender, count: seen.count });
    }
    tallies.set(id, {
      count: tally.count,
      ...(tally.first === undefined ? {} : { first: tally.first as SavedExample }),
      ...(tally.last === undefined ? {} : { last: tally.last as SavedExample }),
      senders: bySender,
    });
  }
  return { tallies };
}

/** Whether two lists of item ids are the same ids in the same order (a loop: no closure a request). */
function sameIds(ids: readonly string[], before: readonly string[]): boolean {
  if (ids.length !== before.length) return false;
  for (let index = 0; index < ids.length; index++) if (ids[index] !== before[index]) return false;
  return true;
}

/** Creates a recorder over the interface's coverage items. */
export function createCoverageRecorder(): CoverageRecorder {
  let tallies = new Map<string, Tally>();
  // Per key (or client, when no key): when the last 429's Retry-After ends.
  let retryUntil = new Map<string, number>();
  let exchanges = 0;
  let stubbed = 0;
  const senders = new Map<string, Omit<CoverageSender, 'count'>>();
  /** The last exchange's items and sender, and where they were counted. */
  const memo = createItemMemo();
  let lastSeen:
    | {
        readonly ids: readonly string[];
        readonly keyId: string | undefined;
        readonly clientId: string | undefined;
        readonly checkId: string | undefined;
        readonly senderKey: string;
        readonly example: SeenExample;
        readonly tallies: readonly Tally[];
        readonly counted: readonly ({ count: number } | undefined)[];
      }
    | undefined;
  return {
    see(exchange) {
      exchanges += 1;
      if (exchange.stubbed === true) {
        stubbed += 1;
        return [];
      }
      const who = exchange.keyId ?? `client:${exchange.clientId ?? '-'}`;
      const open = retryUntil.get(who);
      if (open !== undefined) retryUntil.delete(who);
      const ids = itemsOf(exchange, open, memo);
      if (exchange.status === 429) {
        const until = retryDeadline(exchange.header('retry-after'), exchange.at);
        if (until !== undefined) {
          if (retryUntil.size >= maxOpenRetries)
            retryUntil.delete(retryUntil.keys().next().value as string);
          retryUntil.set(who, until);
        }
      }
      if (ids.length === 0) return ids;
      const repeat = lastSeen;
      const sameSender =
        repeat !== undefined &&
        exchange.keyId === repeat.keyId &&
        exchange.clientId === repeat.clientId &&
        exchange.checkId === repeat.checkId;
      const senderKey = sameSender
        ? repeat.senderKey
        : `${exchange.keyId ?? ''}\n${exchange.clientId ?? ''}\n${exchange.checkId ?? ''}`;
      // The same few senders send most exchanges: one object each, while they stay few.
      let sender = sameSender ? repeat.example.sender : senders.get(senderKey);
      if (sender === undefined) {
        sender = senderOf(exchange);
        if (senders.size >= maxSenders * 4) senders.clear();
        senders.set(senderKey, sender);
      }
      const example: SeenExample = {
        method: exchange.method,
        path: exchange.path,
        status: exchange.status,
        at: exchange.at,
        sender,
      };
      if (sameSender && sameIds(ids, repeat.ids)) {
        // The same items from the same sender as the exchange before: its tallies and sender
        // counts, without looking each up again (the same ones the look-ups would find).
        for (let index = 0; index < repeat.tallies.length; index++) {
          const tally = repeat.tallies[index] as Tally;
          tally.count += 1;
          tally.last = example;
          const counted = repeat.counted[index];
          if (counted !== undefined) counted.count += 1;
        }
        return ids;
      }
      const seenTallies: Tally[] = [];
      const counted: ({ count: number } | undefined)[] = [];
      for (const id of ids) {
        let tally = tallies.get(id);
        if (tally === undefined) {
          tally = { count: 0, first: example, senders: new Map() };
          tallies.set(id, tally);
        }
        tally.count += 1;
        tally.last = example;
        let seen = tally.senders.get(senderKey);
        if (seen !== undefined) seen.count += 1;
        // Bounded: a flood of distinct clients cannot grow one item's list without end.
        else if (tally.senders.size < maxSenders * 4) {
          seen = { sender, count: 1 };
          tally.senders.set(senderKey, seen);
        }
        seenTallies.push(tally);
        counted.push(seen);
      }
      lastSeen = {
        ids,
        keyId: exchange.keyId,
        clientId: exchange.clientId,
        checkId: exchange.checkId,
        senderKey,
        example,
        tallies: seenTallies,
        counted,
      };
      return ids;
    },
    record(source, now, skipped = new Map()) {
      const items = coverageItems.map((item): CoverageItemRecord => {
        const tally = tallies.get(item.id);
        const base = { id: item.id, kind: item.kind, title: item.title, source: item.source };
        if (tally === undefined) {
          const reason = skipped.get(item.id);
          return reason === undefined
            ? { ...base, status: 'not-exercised', count: 0, by: [] }
            : { ...base, status: 'skipped', count: 0, by: [], reason };
        }
        const by = [...tally.senders.values()]
          .sort((a, b) => b.count - a.count)
          .slice(0, maxSenders)
          .map(({ sender, count }) => ({ ...sender, count }));
        return {
          ...base,
          status: 'exercised',
          count: tally.count,
          ...(tally.first === undefined ? {} : { first: shown(tally.first) }),
          ...(tally.last === undefined ? {} : { last: shown(tally.last) }),
          by,
        };
      });
      return {
        schema: coverageSchemaVersion,
        source,
        generatedAt: new Date(now).toISOString(),
        summary: coverageSummary(items, exchanges, stubbed),
        items,
      };
    },
    clear() {
      lastSeen = undefined;
      tallies = new Map();
      retryUntil = new Map();
      exchanges = 0;
      stubbed = 0;
    },
    save() {
      const plain = (seen: SeenExample | undefined) =>
        seen === undefined ? {} : { ...seen, path: shown(seen).path };
      return {
        exchanges,
        stubbed,
        retryUntil: [...retryUntil],
        tallies: [...tallies].map(([id, tally]) => [
          id,
          {
            count: tally.count,
            ...(tally.first === undefined ? {} : { first: plain(tally.first) as SavedExample }),
            ...(tally.last === undefined ? {} : { last: plain(tally.last) as SavedExample }),
            senders: [...tally.senders].map(([key, seen]) => [key, { ...seen }] as const),
          },
        ]),
      };
    },
    load(saved) {
      const read = savedTallies(saved);
      if ('problem' in read) return read;
      const {
        exchanges: count,
        retryUntil: open,
        stubbed: savedStubbed = 0,
      } = saved as Record<string, unknown>;
      if (!isCount(savedStubbed)) return { problem: 'has a stubbed count that is no count' };
      const pairs = Array.isArray(open) ? (open as unknown[]) : [];
      const until = new Map<string, number>();
      for (const pair of pairs) {
        const [who, at] = Array.isArray(pair) ? pair : [];
        if (typeof who !== 'string' || !isCount(at))
          return { problem: 'has a retryUntil that is not [who, epoch ms]' };
        until.set(who, at);
      }
      if (!isCount(count) || !Array.isArray(open) || until.size > maxOpenRetries)
        return { problem: 'has no exchange count or open Retry-After list' };
      return {
        apply: () => {
          lastSeen = undefined;
          tallies = read.tallies;
          retryUntil = until;
          exchanges = count;
          stubbed = savedStubbed;
        },
      };
    },
  };
}

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

function senderOf(exchange: CoverageExchange): Omit<CoverageSender, 'count'> {
  return {
    ...(exchange.keyId === undefined ? {} : { keyId: exchange.keyId }),
    ...(exchange.clientId === undefined ? {} : { clientId: exchange.clientId }),
    ...(exchange.checkId === undefined ? {} : { checkId: exchange.checkId }),
  };
}

/** Whether a JSON body is shaped as the interface's Error (`code`, `message`, `status`). */
export function isErrorBody(json: unknown): boolean {
  if (!isJsonObject(json)) return false;
  const { code, message, status } = json;
  return typeof code === 'string' && typeof message === 'string' && Number.isInteger(status);
}
