/**
 * Interface coverage: which parts of the interface a body of traffic exercised. One model for
 * three sources (the fake, the contract harness, the harness's proxy) over the items of
 * coverage-items.ts. A recorder takes each exchange, in the words every source can give, and
 * says which items it exercised and by whom; its `record` is the documented JSON record
 * (docs/coverage.schema.json, shaped in coverage-record.ts). What it keeps leaves the fake and
 * comes back (browser storage, another tab taking over) as plain data, read back whole and every
 * part checked, so a damaged save is refused rather than half loaded.
 */
import { isCount, isJsonObject } from '../../../base/contract/lossless-json.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { coverageItems, coverageSchemaVersion, statusItemId } from './coverage-items.ts';
import {
  type CoverageExample,
  type CoverageItemRecord,
  type CoverageRecord,
  type CoverageSender,
  coverageSummary,
  maxSenders,
} from './coverage-record.ts';

/** One exchange, in the words every source can give; the key itself never appears. */
export interface CoverageExchange {
  /** One of the interface's operations, or undefined for any other path. */
  readonly operationId: OperationId | undefined;
  readonly method: string;
  /** Path and query as shown in reports (credentials are redacted with the record). */
  readonly path: string;
  /** The request's query parameters. */
  readonly query: URLSearchParams;
  readonly status: number;
  /** A response header by its lower-case name, or undefined. */
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
  save(): unknown;
  /**
   * Checks what `save` returned whole, and gives the change that puts it back, or the problem
   * that keeps it from being read (nothing is changed then).
   */
  load(saved: unknown): { readonly apply: () => void } | { readonly problem: string };
}

/**
 * Most keys (or clients, when no key) whose open Retry-After is followed at once; past it the
 * oldest is forgotten, so a flood of made-up client ids costs no memory.
 */
const maxOpenRetries = 1000;

/** Most senders an item counts apart; the record lists the `maxSenders` busiest. */
const maxSendersKept = maxSenders * 4;

const wholeSeconds = /^\d+$/;

/** An example as kept, and as saved: its time in epoch ms, formatted when a record shows it. */
interface SeenExample {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly at: number;
  readonly sender: Omit<CoverageSender, 'count'>;
}

/** What a recorder counted of one item: how often, its first and last example, by whom. */
interface Tally {
  count: number;
  first?: SeenExample;
  last?: SeenExample;
  readonly senders: Map<string, { readonly sender: Omit<CoverageSender, 'count'>; count: number }>;
}

/** The last exchange's sender, its key among an item's senders, and its sender as shown. */
interface LastSender {
  readonly keyId?: string | undefined;
  readonly clientId?: string | undefined;
  readonly checkId?: string | undefined;
  readonly senderKey: string;
  readonly sender: Omit<CoverageSender, 'count'>;
}

/** Parses Retry-After (seconds or an HTTP date) into epoch ms after `at`, or undefined. */
function retryDeadline(value: string | undefined, at: number): number | undefined {
  if (value === undefined) return undefined;
  if (wholeSeconds.test(value.trim())) return at + Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

/** Which items one exchange exercises, given the key's open Retry-After (if any). */
function itemsOf(exchange: CoverageExchange, retryUntil: number | undefined): string[] {
  const { operationId, status, query } = exchange;
  const ids: string[] = [];
  if (operationId !== undefined) ids.push(statusItemId(operationId, status));
  const limit = exchange.header('x-ratelimit-limit');
  const remaining = exchange.header('x-ratelimit-remaining');
  const reset = exchange.header('x-ratelimit-reset');
  if (limit !== undefined && remaining !== undefined && reset !== undefined)
    ids.push('headers.rateLimit');
  // A Unix time in seconds is past 2001 (1e9); a countdown is small.
  if (reset !== undefined && wholeSeconds.test(reset.trim()) && Number(reset) >= 1e9)
    ids.push('headers.rateLimitReset');
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

/** Creates a recorder over the interface's coverage items. */
export function createCoverageRecorder(): CoverageRecorder {
  let tallies = new Map<string, Tally>();
  /** Per key (or client, when no key): when the last 429's Retry-After ends. */
  let retryUntil = new Map<string, number>();
  let exchanges = 0;
  let stubbed = 0;
  // To begin with, the sender of no ids.
  let last: LastSender = { senderKey: '\n\n', sender: {} };
  const clear = () => {
    tallies = new Map();
    retryUntil = new Map();
    exchanges = 0;
    stubbed = 0;
  };
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
      const ids = itemsOf(exchange, open);
      if (exchange.status === 429) {
        const until = retryDeadline(exchange.header('retry-after'), exchange.at);
        if (until !== undefined) {
          if (retryUntil.size >= maxOpenRetries)
            retryUntil.delete(retryUntil.keys().next().value as string);
          retryUntil.set(who, until);
        }
      }
      const { keyId, clientId, checkId } = exchange;
      // The same sender sends most exchanges one after another: its key and sender are made once.
      if (last.keyId !== keyId || last.clientId !== clientId || last.checkId !== checkId) {
        const sender = {
          ...(keyId === undefined ? {} : { keyId }),
          ...(clientId === undefined ? {} : { clientId }),
          ...(checkId === undefined ? {} : { checkId }),
        };
        const senderKey = `${keyId ?? ''}\n${clientId ?? ''}\n${checkId ?? ''}`;
        last = { keyId, clientId, checkId, senderKey, sender };
      }
      const { senderKey, sender } = last;
      const { method, path, status, at } = exchange;
      const example: SeenExample = { method, path, status, at, sender };
      for (const id of ids) {
        let tally = tallies.get(id);
        if (tally === undefined) {
          tally = { count: 0, first: example, senders: new Map() };
          tallies.set(id, tally);
        }
        tally.count += 1;
        tally.last = example;
        const seen = tally.senders.get(senderKey);
        if (seen !== undefined) seen.count += 1;
        // Bounded: a flood of distinct clients cannot grow one item's list without end.
        else if (tally.senders.size < maxSendersKept)
          tally.senders.set(senderKey, { sender, count: 1 });
      }
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
    clear,
    save: () => ({
      exchanges,
      stubbed,
      retryUntil: [...retryUntil],
      tallies: [...tallies].map(([id, tally]) => [
        id,
        { ...tally, senders: [...tally.senders].map(([key, seen]) => [key, { ...seen }]) },
      ]),
    }),
    load(saved) {
      const read = readSaved(saved);
      if ('problem' in read) return read;
      return {
        apply: () => {
          ({ tallies, retryUntil, exchanges, stubbed } = read);
        },
      };
    },
  };
}

/** An example as a record shows it (only its own fields: a saved one may carry more). */
function shown({ method, path, status, at, sender }: SeenExample): CoverageExample {
  return { method, path, status, at: new Date(at).toISOString(), ...sender };
}

const itemIds = new Set(coverageItems.map((item) => item.id));

/** Whether a saved sender is one (its ids as text, nothing else). */
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

/** Whether a saved example is one. */
function isExample(value: unknown): value is SeenExample {
  return (
    isJsonObject(value) &&
    typeof value.method === 'string' &&
    typeof value.path === 'string' &&
    isCount(value.status) &&
    isCount(value.at) &&
    isSender(value.sender)
  );
}

/** A recorder's state as read back from what `save` returned, or why it cannot be. */
function readSaved(saved: unknown):
  | { readonly problem: string }
  | {
      readonly tallies: Map<string, Tally>;
      readonly retryUntil: Map<string, number>;
      readonly exchanges: number;
      readonly stubbed: number;
    } {
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
      senders.length > maxSendersKept
    )
      return { problem: `has a tally of ${id} that is not a count, examples and senders` };
    const bySender: Tally['senders'] = new Map();
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
      ...(tally.first === undefined ? {} : { first: tally.first as SeenExample }),
      ...(tally.last === undefined ? {} : { last: tally.last as SeenExample }),
      senders: bySender,
    });
  }
  const { exchanges, retryUntil: open, stubbed = 0 } = saved;
  if (!isCount(stubbed)) return { problem: 'has a stubbed count that is no count' };
  const retryUntil = new Map<string, number>();
  for (const pair of Array.isArray(open) ? (open as unknown[]) : []) {
    const [who, at] = Array.isArray(pair) ? pair : [];
    if (typeof who !== 'string' || !isCount(at))
      return { problem: 'has a retryUntil that is not [who, epoch ms]' };
    retryUntil.set(who, at);
  }
  if (!isCount(exchanges) || !Array.isArray(open) || retryUntil.size > maxOpenRetries)
    return { problem: 'has no exchange count or open Retry-After list' };
  return { tallies, retryUntil, exchanges, stubbed };
}

/** Whether a JSON body is shaped as the interface's Error (`code`, `message`, `status`). */
export function isErrorBody(json: unknown): boolean {
  if (!isJsonObject(json)) return false;
  const { code, message, status } = json;
  return typeof code === 'string' && typeof message === 'string' && Number.isInteger(status);
}
