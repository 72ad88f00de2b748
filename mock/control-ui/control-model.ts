/**
 * What the control UI shows, from one reading of the fake and the time now: pure functions, no
 * DOM, so the rules are tested in Node (control-model.test.ts) and the page only writes text. The
 * panel and the QA page show the same reading in rows of cells (`Row`), each its own way.
 */
import { emptyUsage, peekRateLimit } from '../base/quota/rate-limit.ts';
import type { KeyInfo } from '../steps/control/control.ts';
import type { JournalAnswer } from '../steps/journal/journal-entry.ts';
import type { ClientSummary } from '../steps/qa/client-report/client-report.ts';
import type { CoverageRecord } from '../steps/qa/coverage/coverage-record.ts';
import type { ChaosRule, ChaosSettings } from '../steps/qa/injected-failures/chaos-settings.ts';
import type { ControlReading } from './control-reading.ts';

const minuteMs = 60_000;
const dayMs = 86_400_000;

/** One cell of a row: its text, and how it is marked (a class, a verdict badge, a button). */
export interface Cell {
  readonly text: string;
  /** Its classes (`remaining low`, `ban banned`), which the styles and tests select. */
  readonly className?: string;
  /** A verdict shown as a badge before the text (`pass`, `fail`...). */
  readonly badge?: string;
  /** A button after the text (the panel's Lift), shown while `shown`. */
  readonly button?: { readonly name: string; readonly title: string; readonly shown: boolean };
}

/** One row of a table, found again by its key across updates (by its place when it has none). */
export interface Row {
  readonly key?: string;
  readonly cells: readonly Cell[];
}

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
  /** The latest requests: time, status, request, code and chaos, key. */
  readonly recent: readonly Row[];
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

/** A time to read at a glance, for a page that reads again each second: `42 s`, `5 min`, `12.0 h`. */
function roughly(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** The plan, and whether the control surface gave the key limits of its own. */
function planOf(info: KeyInfo): string {
  return info.overridden ? `${info.plan} (own limits)` : info.plan;
}

/** A key's X-RateLimit-* at `now`, by rate-limit.ts over the windows as read (rolled over). */
function keyView(info: KeyInfo, readAt: number, now: number): KeyView {
  const usage = emptyUsage();
  usage.minute = { start: Math.floor(readAt / minuteMs) * minuteMs, count: info.usage.minute };
  usage.day = { start: Math.floor(readAt / dayMs) * dayMs, count: info.usage.day };
  const headers = peekRateLimit(usage, info.limits, now);
  const bannedUntil = info.bannedUntil === null ? undefined : Date.parse(info.bannedUntil);
  const banLeftMs = bannedUntil === undefined ? 0 : Math.max(0, bannedUntil - now);
  return {
    id: info.id,
    plan: planOf(info),
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
  const { day, violations } = info.usage;
  return day > 0 || violations > 0 || info.bannedUntil !== null || recentKeys.has(info.id);
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

/** One line per operation with forced answers pending. */
function forcedLines(reading: ControlReading): string[] {
  return Object.entries(reading.forced).map(
    ([operation, rule]) =>
      `${operation}: the next ${rule?.remaining === 1 ? 'answer is' : `${rule?.remaining} answers are`} ${rule?.status}`,
  );
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
export function panelModel(reading: ControlReading, realNow: number): PanelModel {
  const fakeNow = reading.frozen
    ? reading.fakeNow
    : reading.fakeNow + Math.max(0, realNow - reading.realNow);
  const recentKeys = new Set(reading.recent.map((request) => request.keyId));
  const keys = reading.keys
    .filter((info) => used(info, recentKeys))
    .map((info) => keyView(info, reading.fakeNow, fakeNow));
  const forced = forcedLines(reading);
  const recent = reading.recent.slice(0, 8).map((request) => {
    const status = request.dropped ? 'dropped' : String(request.status);
    const note = [request.errorCode ?? '', request.chaos ? '(chaos)' : ''].filter(Boolean);
    const failed = request.dropped || request.status >= 400;
    return row(undefined, [
      { text: new Date(Date.parse(request.at)).toISOString().slice(11, 19), className: 'at' },
      { text: status, className: failed ? 'status failed' : 'status ok' },
      { text: `${request.method} ${request.path}`, className: 'request' },
      { text: note.join(' '), className: 'note' },
      { text: request.keyId, className: 'key' },
    ]);
  });
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

/** A row of plain cells, or of cells as given. */
function row(key: string | undefined, cells: readonly (Cell | string | number)[]): Row {
  const made = cells.map((cell) => (typeof cell === 'object' ? cell : { text: String(cell) }));
  return key === undefined ? { cells: made } : { key, cells: made };
}

/** The panel's row of one key: plan, Remaining of the tighter window, its reset, the ban. */
export function panelKeyRow(view: KeyView): Row {
  const banned = view.bannedUntil !== undefined;
  return row(view.id, [
    { text: view.id, className: 'key' },
    { text: view.plan, className: 'plan' },
    {
      text: `${view.remaining} / ${view.limit}${view.window === 'day' ? ' today' : ''}`,
      className: `remaining${view.remaining === 0 ? ' none' : view.remaining <= view.limit / 10 ? ' low' : ''}`,
    },
    { text: duration(view.resetInMs), className: 'reset' },
    {
      text: banned ? duration(view.banLeftMs) : 'no',
      className: banned ? 'ban banned' : 'ban',
      button: {
        name: 'lift',
        title: `Lift the ban of ${view.id}: move the fake's clock past its end`,
        shown: banned,
      },
    },
  ]);
}

/** What the QA page shows of one reading, on the fake's clock as read (it reads each second). */
export function qaModel(reading: ControlReading) {
  const now = reading.fakeNow;
  const minuteReset = Math.floor(now / minuteMs) * minuteMs + minuteMs;
  const dayReset = Math.floor(now / dayMs) * dayMs + dayMs;
  const forced = forcedLines(reading);
  const stubs = reading.stubs.map(
    (stub) =>
      `${stub.id} ${stub.operationId} ${stub.answer.status ?? 'drop'}: ${stub.breaks.join('; ')}`,
  );
  return {
    clock: `${new Date(now).toISOString()} (${reading.frozen ? 'frozen' : 'ticking'})`,
    keys: reading.keys.map((info) =>
      row(info.id, [
        info.id,
        planOf(info),
        `${info.usage.minute} / ${info.limits.perMinute}, resets in ${roughly(minuteReset - now)}`,
        `${info.usage.day} / ${info.limits.perDay}, resets in ${roughly(dayReset - now)}`,
        info.bannedUntil === null
          ? 'no'
          : `banned ${roughly(Date.parse(info.bannedUntil) - now)} more`,
      ]),
    ),
    chaos:
      (reading.chaos === null ? 'Chaos off.' : JSON.stringify(reading.chaos, null, 1)) +
      (forced.length > 0 ? `\nForced: ${forced.join('; ')}` : '') +
      (stubs.length > 0 ? `\nStubs: ${stubs.join('\n')}` : ''),
    judgedOn: judgedOn(reading.report.clock),
    clients: reading.report.clients.map((client) =>
      row(`${client.keyId} ${client.clientId}`, clientCells(client)),
    ),
    recent: reading.recent.map((request) =>
      row(undefined, [
        request.at === request.realAt
          ? request.at.slice(11, 23)
          : `${request.at.slice(11, 23)} (real ${request.realAt.slice(11, 23)})`,
        request.keyId,
        request.clientId,
        request.connection,
        `${request.method} ${request.path}`,
        request.dropped ? 'dropped' : request.status,
        request.errorCode ?? '',
        request.chaos ? 'chaos' : '',
        `${request.latencyMs} ms`,
      ]),
    ),
  };
}

/** What the verdicts were measured on: a frozen or shifted clock is said, never hidden. */
function judgedOn(clock: ControlReading['report']['clock']): string {
  const both = 'waits measured on real time and on the fake clock; the longer counts';
  if (clock.mode === 'frozen') return `Fake clock frozen: ${both}.`;
  if (clock.mode === 'shifted')
    return `Fake clock shifted by ${roughly(Math.abs(clock.offsetMs))}${clock.offsetMs < 0 ? ' back' : ' ahead'}: ${both}.`;
  return 'Fake clock on real time.';
}

/** A client's cells: who, the verdict, each rule's with what it saw, its copies, and why. */
function clientCells(client: ClientSummary): Cell[] {
  const { retryAfter, backoff, ban, resentCreates } = client.rules;
  const waits = backoff.waits.map((wait) =>
    wait.waitMs < 1000 ? `${wait.waitMs} ms` : `${wait.waitMs / 1000} s`,
  );
  return [
    { text: client.keyId },
    { text: client.clientId },
    { text: '', badge: client.verdict },
    {
      text: ` ${retryAfter.earlyRequests} early of ${retryAfter.judgedRequests} judged${retryAfter.ambiguousEarly ? `, ${retryAfter.ambiguousEarly} in doubt` : ''}`,
      badge: retryAfter.verdict,
    },
    { text: ` waits ${waits.join(', ')}`, badge: backoff.verdict },
    { text: ` ${ban.bans} ban(s)`, badge: ban.verdict },
    {
      text: ` ${resentCreates.possibleDuplicates} possible duplicate(s)`,
      badge: resentCreates.verdict,
    },
    // How the report told this client's copies apart: declared one copy, or by connection.
    { text: client.oneCopy ? 'one copy (declared)' : `${client.connections} connection(s)` },
    // Every rule that is not a pass says why: failures first, then doubts.
    { text: [...client.problems, ...client.doubts].join(' | ') || '-' },
  ];
}

/** Which items of the interface no request exercised yet: what the tests still owe. */
export function coverageLine(coverage: CoverageRecord): string {
  const never = coverage.items.filter((item) => item.status !== 'exercised').map((item) => item.id);
  const { exercised, items, exchanges } = coverage.summary;
  return `${exercised} of ${items} items exercised by ${exchanges} requests${never.length > 0 ? `; never: ${never.join(', ')}` : '.'}`;
}

/** The marks a journal entry may carry, in the order the page shows them. */
const journalMarks = ['forced', 'chaos', 'stubbed', 'dropped', 'refusedEarly'] as const;

/** The journal's rows, and how many matched: the page shows the newest few of them. */
export function journalView(journal: JournalAnswer): { total: string; rows: Row[] } {
  const shown = journal.total > journal.requests.length;
  return {
    total:
      `${journal.total} request(s) match${shown ? `, the newest ${journal.requests.length} shown` : ''}` +
      (journal.dropped
        ? `; ${journal.dropped} older one(s) dropped to stay within the bounds`
        : ''),
    rows: journal.requests.map((entry) =>
      row(String(entry.seq), [
        `#${entry.seq}`,
        entry.at.slice(11, 23),
        entry.keyId,
        entry.clientId,
        `${entry.method} ${entry.path}${entry.query}`,
        entry.status,
        entry.errorCode ?? '',
        journalMarks.filter((mark) => entry[mark]).join(' '),
        entry.headers['X-RateLimit-Remaining'] ?? '',
        entry.headers['Retry-After'] ?? '',
        `${entry.durationMs} ms`,
      ]),
    ),
  };
}
