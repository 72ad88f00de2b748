/**
 * What the in-page panel shows, from one reading of the fake and the time now: pure functions, no
 * DOM, so the rules (which keys, what Remaining, how long to the reset or the ban's end) are
 * tested in Node (panel-model.test.ts) and the page only writes text.
 */
import { emptyUsage, peekRateLimit } from '../../../base/quota/rate-limit.ts';
import type { ChaosRule, ChaosSettings, KeyInfo } from '../../../index.ts';
import type { PanelReading } from './panel-reading.ts';

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** One key the page used, as the panel shows it. */
export interface KeyView {
  readonly id: string;
  /** The plan, and whether the control surface gave the key limits of its own. */
  readonly plan: string;
  readonly limit: number;
  /** What `X-RateLimit-Remaining` says on the key's answers now. */
  readonly remaining: number;
  /** Which window `remaining` is from (the one with fewer requests left, as the header's). */
  readonly window: 'minute' | 'day';
  /** Time until that window resets (`X-RateLimit-Reset`), ms. */
  readonly resetInMs: number;
  /** Epoch ms the ban ends on the fake's clock, or `undefined` when the key is not banned. */
  readonly bannedUntil: number | undefined;
  /** Time left of the ban, ms (0 when not banned). */
  readonly banLeftMs: number;
}

/** One of the latest requests. */
interface RequestView {
  /** Its time on the fake's clock, `HH:MM:SS` UTC. */
  readonly at: string;
  readonly keyId: string;
  readonly request: string;
  /** The status, or `dropped` for a connection chaos dropped. */
  readonly status: string;
  /** The Error body's code and whether chaos or a forced rule made it, when it failed. */
  readonly note: string;
}

/** Everything the panel shows at one moment. */
export interface PanelModel {
  /** The fake's clock now, estimated from the reading (a frozen clock stands still). */
  readonly fakeNow: number;
  /** The clock line: the time, and whether it is frozen or off real time. */
  readonly clock: string;
  readonly keys: readonly KeyView[];
  /** One line per operation with forced answers pending. */
  readonly forced: readonly string[];
  /** `off`, or the seed and one line per rule. */
  readonly chaos: { readonly on: boolean; readonly lines: readonly string[] };
  readonly recent: readonly RequestView[];
  /** One line for the collapsed panel: the tightest key, a ban, chaos. */
  readonly summary: string;
}

/** A countdown: `42 s`, `4 min 59 s`, `11 h 59 min`. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** `HH:MM:SS` of an epoch ms, in UTC (the fake's windows are UTC). */
function timeOfDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 19);
}

/**
 * A key's Remaining and reset as its answers' X-RateLimit-* say them at `now`: the fake's own
 * arithmetic (rate-limit.ts) over the windows as read, which roll over when `now` passes a reset.
 */
function keyView(info: KeyInfo, readAt: number, now: number): KeyView {
  const usage = emptyUsage();
  usage.minute = { start: Math.floor(readAt / minuteMs) * minuteMs, count: info.usage.minute };
  usage.day = { start: Math.floor(readAt / dayMs) * dayMs, count: info.usage.day };
  const headers = peekRateLimit(usage, info.limits, now);
  const bannedUntil = info.bannedUntil === null ? undefined : Date.parse(info.bannedUntil);
  const banLeftMs = bannedUntil === undefined ? 0 : Math.max(0, bannedUntil - now);
  return {
    id: info.id,
    plan: info.overridden ? `${info.plan} (own limits)` : info.plan,
    limit: headers.limit,
    remaining: headers.remaining,
    window: headers.reset * 1000 === (Math.floor(now / minuteMs) + 1) * minuteMs ? 'minute' : 'day',
    resetInMs: headers.reset * 1000 - now,
    bannedUntil: banLeftMs > 0 ? bannedUntil : undefined,
    banLeftMs,
  };
}

/** Whether the page used a key: it has requests today, refusals, a ban, or a recent request. */
function used(info: KeyInfo, recentKeys: ReadonlySet<string>): boolean {
  return (
    info.usage.day > 0 ||
    info.usage.violations > 0 ||
    info.bannedUntil !== null ||
    recentKeys.has(info.id)
  );
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

/** One chaos rule in a line: where it applies and what it does. */
function chaosRuleLine(rule: ChaosRule): string {
  const where = `${rule.operationId ?? 'every operation'}${rule.keyId === undefined ? '' : ` of ${rule.keyId}`}`;
  const does = Object.entries(rule.errors ?? {}).map(
    ([status, share]) => `${status} ${percent(share ?? 0)}`,
  );
  if (rule.drop !== undefined && rule.drop > 0) does.push(`dropped ${percent(rule.drop)}`);
  const latency = rule.latency;
  if (latency?.distribution === 'uniform')
    does.push(`latency ${latency.minMs}-${latency.maxMs} ms`);
  if (latency?.distribution === 'exponential')
    does.push(`latency ~${latency.meanMs} ms (at most ${latency.maxMs})`);
  return `${where}: ${does.join(', ') || 'nothing'}`;
}

function chaosView(chaos: ChaosSettings | null): PanelModel['chaos'] {
  if (chaos === null) return { on: false, lines: [] };
  return { on: true, lines: [`seed ${chaos.seed}`, ...chaos.rules.map(chaosRuleLine)] };
}

/** The clock line: the fake's time, frozen or ticking, and how far off real time. */
function clockLine(fakeNow: number, frozen: boolean, realNow: number): string {
  const offset = fakeNow - realNow;
  const off =
    Math.abs(offset) < 2000
      ? 'on real time'
      : `${duration(Math.abs(offset))} ${offset > 0 ? 'ahead of' : 'behind'} real time`;
  const iso = new Date(fakeNow).toISOString();
  // The date only when it is not today's: a clock moved by days says so.
  const day =
    iso.slice(0, 10) === new Date(realNow).toISOString().slice(0, 10) ? '' : `${iso.slice(0, 10)} `;
  return `${day}${iso.slice(11, 19)} UTC, ${frozen ? 'frozen' : 'ticking'}, ${off}`;
}

/** The model of the panel at real time `realNow`, from the last reading. */
export function panelModel(reading: PanelReading, realNow: number): PanelModel {
  const fakeNow = reading.frozen
    ? reading.fakeNow
    : reading.fakeNow + Math.max(0, realNow - reading.realNow);
  const recentKeys = new Set(reading.recent.map((request) => request.keyId));
  const keys = reading.keys
    .filter((info) => used(info, recentKeys))
    .map((info) => keyView(info, reading.fakeNow, fakeNow));
  const forced = Object.entries(reading.forced).map(
    ([operation, rule]) =>
      `${operation}: the next ${rule?.remaining === 1 ? 'answer is' : `${rule?.remaining} answers are`} ${rule?.status}`,
  );
  const recent = reading.recent.slice(0, 8).map((request) => ({
    at: timeOfDay(Date.parse(request.at)),
    keyId: request.keyId,
    request: `${request.method} ${request.path}`,
    status: request.dropped ? 'dropped' : String(request.status),
    note: [request.errorCode ?? '', request.chaos ? '(chaos)' : ''].filter(Boolean).join(' '),
  }));
  const chaos = chaosView(reading.chaos);
  const tightest = [...keys].sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
  const banned = keys.find((key) => key.bannedUntil !== undefined);
  const summary = [
    banned === undefined ? undefined : `${banned.id} banned ${duration(banned.banLeftMs)}`,
    tightest === undefined || tightest === banned
      ? undefined
      : `${tightest.id} ${tightest.remaining}/${tightest.limit}, resets in ${duration(tightest.resetInMs)}`,
    forced.length > 0 ? `${forced.length} forced` : undefined,
    chaos.on ? 'chaos on' : undefined,
  ].filter((part) => part !== undefined);
  return {
    fakeNow,
    clock: clockLine(fakeNow, reading.frozen, realNow),
    keys,
    forced,
    chaos,
    recent,
    summary: summary.join(' · ') || 'no key used yet',
  };
}
