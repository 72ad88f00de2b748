/**
 * A coverage recorder's state as it leaves the fake and comes back (browser storage, another tab
 * taking over): what it counts per item (Tally) with its examples, saved as plain data and read
 * back whole, every part checked, so a damaged save is refused rather than half loaded.
 */
import { isCount, isJsonObject } from '../../../base/contract/lossless-json.ts';
import { coverageItems } from './coverage-items.ts';
import { type CoverageExample, type CoverageSender, maxSenders } from './coverage-record.ts';

/** An example as seen: its path and time are formatted only when a record shows it. */
export interface SeenExample {
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

/** An example as a record shows it. */
export function shown(seen: SeenExample): CoverageExample {
  return {
    method: seen.method,
    path: pathText(seen.path),
    status: seen.status,
    at: new Date(seen.at).toISOString(),
    ...seen.sender,
  };
}

/** What a recorder counted of one item: how often, its first and last example, by whom. */
export interface Tally {
  count: number;
  first?: SeenExample;
  last?: SeenExample;
  readonly senders: Map<string, { sender: Omit<CoverageSender, 'count'>; count: number }>;
}

/** An example as saved: its path made text. */
interface SavedExample extends Omit<SeenExample, 'path'> {
  readonly path: string;
}

/** A recorder's state as plain data. */
export interface SavedCoverage {
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

/** A recorder's state as plain data (`SavedCoverage`), its examples' paths made text. */
export function savedCoverage(
  exchanges: number,
  stubbed: number,
  retryUntil: ReadonlyMap<string, number>,
  tallies: ReadonlyMap<string, Tally>,
): SavedCoverage {
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
}

/** A recorder's state as read back from what `savedCoverage` returned, or why it cannot be. */
export function readSavedCoverage(
  saved: unknown,
  maxOpenRetries: number,
):
  | { readonly problem: string }
  | {
      readonly tallies: Map<string, Tally>;
      readonly retryUntil: Map<string, number>;
      readonly exchanges: number;
      readonly stubbed: number;
    } {
  const read = savedTallies(saved);
  if ('problem' in read) return read;
  const { exchanges, retryUntil: open, stubbed = 0 } = saved as Record<string, unknown>;
  if (!isCount(stubbed)) return { problem: 'has a stubbed count that is no count' };
  const pairs = Array.isArray(open) ? (open as unknown[]) : [];
  const retryUntil = new Map<string, number>();
  for (const pair of pairs) {
    const [who, at] = Array.isArray(pair) ? pair : [];
    if (typeof who !== 'string' || !isCount(at))
      return { problem: 'has a retryUntil that is not [who, epoch ms]' };
    retryUntil.set(who, at);
  }
  if (!isCount(exchanges) || !Array.isArray(open) || retryUntil.size > maxOpenRetries)
    return { problem: 'has no exchange count or open Retry-After list' };
  return { tallies: read.tallies, retryUntil, exchanges, stubbed };
}
