/**
 * Interface coverage: which parts of the interface a body of traffic exercised. One model for
 * three sources (the fake, the contract harness, the harness's proxy): the items are every
 * operation x documented status of the OpenAPI document, plus the interface's named rules and
 * headers (the "Coverage items" section of openapi/interface.md, mirrored in `ruleItems`). A
 * recorder takes each exchange, in the words every source can give, and says which items it
 * exercised and by whom; its `record` is the documented JSON record (docs/coverage.schema.json,
 * shaped in coverage-record.ts). What a recorder keeps leaves and comes back through
 * coverage-saved-state.ts.
 */
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { coverageItems, coverageSchemaVersion, statusItemId } from './coverage-items.ts';
import {
  type CoverageItemRecord,
  type CoverageRecord,
  type CoverageSender,
  coverageSummary,
  maxSenders,
} from './coverage-record.ts';
import {
  readSavedCoverage,
  type SavedCoverage,
  type SeenExample,
  savedCoverage,
  shown,
  type Tally,
} from './coverage-saved-state.ts';

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

/** Whether two lists of item ids are the same ids in the same order (a loop: no closure a request). */
function sameIds(ids: readonly string[], before: readonly string[]): boolean {
  if (ids.length !== before.length) return false;
  for (let index = 0; index < ids.length; index++) if (ids[index] !== before[index]) return false;
  return true;
}

/** The last exchange's items and sender, and where they were counted. */
interface LastSeen {
  readonly ids: readonly string[];
  readonly keyId: string | undefined;
  readonly clientId: string | undefined;
  readonly checkId: string | undefined;
  readonly senderKey: string;
  readonly example: SeenExample;
  readonly tallies: readonly Tally[];
  readonly counted: readonly ({ count: number } | undefined)[];
}

/** Creates a recorder over the interface's coverage items. */
export function createCoverageRecorder(): CoverageRecorder {
  return new InterfaceCoverageRecorder();
}

class InterfaceCoverageRecorder implements CoverageRecorder {
  #tallies = new Map<string, Tally>();
  /** Per key (or client, when no key): when the last 429's Retry-After ends. */
  #retryUntil = new Map<string, number>();
  #exchanges = 0;
  #stubbed = 0;
  readonly #senders = new Map<string, Omit<CoverageSender, 'count'>>();
  readonly #memo = createItemMemo();
  #lastSeen: LastSeen | undefined;

  see(exchange: CoverageExchange): readonly string[] {
    this.#exchanges += 1;
    if (exchange.stubbed === true) {
      this.#stubbed += 1;
      return [];
    }
    const ids = this.#itemsOf(exchange);
    if (ids.length === 0) return ids;
    const repeat = this.#lastSeen;
    const sameSender =
      repeat !== undefined &&
      exchange.keyId === repeat.keyId &&
      exchange.clientId === repeat.clientId &&
      exchange.checkId === repeat.checkId;
    const senderKey = sameSender
      ? repeat.senderKey
      : `${exchange.keyId ?? ''}\n${exchange.clientId ?? ''}\n${exchange.checkId ?? ''}`;
    const example: SeenExample = {
      method: exchange.method,
      path: exchange.path,
      status: exchange.status,
      at: exchange.at,
      sender: sameSender ? repeat.example.sender : this.#senderOf(exchange, senderKey),
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
    this.#count(exchange, ids, senderKey, example);
    return ids;
  }

  /** The items an exchange exercises; a 429's Retry-After is kept for the key's next exchange. */
  #itemsOf(exchange: CoverageExchange): readonly string[] {
    const retryUntil = this.#retryUntil;
    const who = exchange.keyId ?? `client:${exchange.clientId ?? '-'}`;
    const open = retryUntil.get(who);
    if (open !== undefined) retryUntil.delete(who);
    const ids = itemsOf(exchange, open, this.#memo);
    if (exchange.status === 429) {
      const until = retryDeadline(exchange.header('retry-after'), exchange.at);
      if (until !== undefined) {
        if (retryUntil.size >= maxOpenRetries)
          retryUntil.delete(retryUntil.keys().next().value as string);
        retryUntil.set(who, until);
      }
    }
    return ids;
  }

  /** The sender of an exchange: the same few send most exchanges, one object each while few. */
  #senderOf(exchange: CoverageExchange, senderKey: string): Omit<CoverageSender, 'count'> {
    let sender = this.#senders.get(senderKey);
    if (sender === undefined) {
      sender = senderOf(exchange);
      if (this.#senders.size >= maxSenders * 4) this.#senders.clear();
      this.#senders.set(senderKey, sender);
    }
    return sender;
  }

  /** Counts an exchange in each of its items' tallies, and remembers where, for the next one. */
  #count(
    exchange: CoverageExchange,
    ids: readonly string[],
    senderKey: string,
    example: SeenExample,
  ): void {
    const seenTallies: Tally[] = [];
    const counted: ({ count: number } | undefined)[] = [];
    for (const id of ids) {
      let tally = this.#tallies.get(id);
      if (tally === undefined) {
        tally = { count: 0, first: example, senders: new Map() };
        this.#tallies.set(id, tally);
      }
      tally.count += 1;
      tally.last = example;
      let seen = tally.senders.get(senderKey);
      if (seen !== undefined) seen.count += 1;
      // Bounded: a flood of distinct clients cannot grow one item's list without end.
      else if (tally.senders.size < maxSenders * 4) {
        seen = { sender: example.sender, count: 1 };
        tally.senders.set(senderKey, seen);
      }
      seenTallies.push(tally);
      counted.push(seen);
    }
    this.#lastSeen = {
      ids,
      keyId: exchange.keyId,
      clientId: exchange.clientId,
      checkId: exchange.checkId,
      senderKey,
      example,
      tallies: seenTallies,
      counted,
    };
  }

  record(
    source: CoverageRecord['source'],
    now: number,
    skipped: ReadonlyMap<string, string> = new Map(),
  ): CoverageRecord {
    const items = coverageItems.map((item): CoverageItemRecord => {
      const tally = this.#tallies.get(item.id);
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
      summary: coverageSummary(items, this.#exchanges, this.#stubbed),
      items,
    };
  }

  clear(): void {
    this.#lastSeen = undefined;
    this.#tallies = new Map();
    this.#retryUntil = new Map();
    this.#exchanges = 0;
    this.#stubbed = 0;
  }

  save(): SavedCoverage {
    return savedCoverage(this.#exchanges, this.#stubbed, this.#retryUntil, this.#tallies);
  }

  load(saved: unknown): { readonly apply: () => void } | { readonly problem: string } {
    const read = readSavedCoverage(saved, maxOpenRetries);
    if ('problem' in read) return read;
    return {
      apply: () => {
        this.#lastSeen = undefined;
        this.#tallies = read.tallies;
        this.#retryUntil = read.retryUntil;
        this.#exchanges = read.exchanges;
        this.#stubbed = read.stubbed;
      },
    };
  }
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
