/**
 * The client compliance report: for each key and each client on it, every answer that told the
 * client to back off (429, 5xx, a dropped connection) and what the client did next, judged by the
 * interface's rule for clients (Limits, rule 2): retry only after `Retry-After`, back off
 * exponentially, and so never earn a ban. The definition is the README's QA section.
 *
 * A *chain* is one request retried: a failure opens it, the client's next request with the same
 * method and path (its request identity) is its retry. Two copies of one app under one id are
 * told apart by that identity and by timing; what timing cannot settle is `inconclusive`.
 * Every wait is measured on both clocks (the fake's, which tests may freeze and advance, and real
 * time, which a client sleeps on) and the longer reading counts.
 */

import { backoffRules, type ChainJudgement, judgeChain } from './backoff-judgement.ts';

/** How the rules are judged; documented in the README's QA section. */
const complianceTolerance = {
  /** A request this much or less before Retry-After elapsed is not early (timer granularity). */
  earlyToleranceMs: 10,
  /** A wait from Retry-After up to this share longer (plus `dictatedSlackMs`) is what the server asked for. */
  dictatedShare: 0.25,
  /** ...plus this many ms (scheduling): not the client's own backoff, so not judged for growth. */
  dictatedSlackMs: 100,
  ...backoffRules,
} as const;

/** The most clients told apart per key; later ones share one entry. */
const maxClientsPerKey = 64;
/** The most recent requests kept for the live page, over all clients. */
const recentLength = 25;
/** The most recent requests kept per client. */
const clientRecentLength = 10;
/** Waits kept per client for the report. */
const waitsKept = 20;
/** Open retry chains kept per client (a client that gives up leaves one open). */
const openChainsKept = 16;
/**
 * Own waits a chain keeps, its latest: every rule of backoff-judgement.ts reads at most five in a
 * row, and a client flooding early retries opens a chain per request, each carrying its parent's
 * waits: unbounded, that grew by the square of the requests (4 GB from 30 flooding clients).
 */
const ownWaitsKept = 64;

/** Drops a chain's oldest own waits past `ownWaitsKept` (inherited ones come first). */
function trimWaits(chain: Chain): void {
  const over = chain.ownWaits.length - ownWaitsKept;
  if (over <= 0) return;
  chain.ownWaits.splice(0, over);
  chain.inherited = Math.max(0, chain.inherited - over);
}

/** One answered request, as the report sees it. */
interface ClientEvent {
  readonly keyId: string;
  readonly clientId: string;
  readonly method: string;
  /** The request's URL; redacted only when a report shows it, off the request's path. */
  readonly url: URL;
  /** Fake's clock (epoch ms) when the request arrived and when its answer left. */
  readonly arrivedAt: number;
  readonly answeredAt: number;
  /** Real time (`Date.now()`) at the same two moments. */
  readonly arrivedReal: number;
  readonly answeredReal: number;
  readonly status: number;
  readonly errorCode: string | undefined;
  /** The answer's Retry-After header, if any. */
  readonly retryAfter: string | undefined;
  /** Ms from the answer to its `X-RateLimit-Reset` (a wait some clients take when no Retry-After came). */
  readonly resetInMs: number | undefined;
  readonly chaos: boolean;
  readonly dropped: boolean;
  /** A rate-limit refusal, the only answer that counts towards a ban (not forced, not chaos). */
  readonly refused: boolean;
  /** A refusal that came while a Retry-After the key was given still ran: what earns a ban. */
  readonly violation: boolean;
  /** This answer started a ban of the key. */
  readonly banStarted: boolean;
}

/**
 * A rule's verdict: `pass` with evidence only; `inconclusive` when evidence is too thin or
 * ambiguous (the rule's `reason` says why); `not-applicable` when the client never met the
 * situation the rule is about.
 */
export type RuleVerdict = 'pass' | 'fail' | 'inconclusive' | 'not-applicable';

/** One wait between a failure and the client's retry of it. */
export interface RetryWait {
  /** Status of the failure waited after (0: dropped connection). */
  readonly afterStatus: number;
  /** The wait judged: the longer of the two clocks' readings. */
  readonly waitMs: number;
  /** The wait on real time and on the fake's clock (they differ when the clock is frozen or moved). */
  readonly realWaitMs: number;
  readonly fakeWaitMs: number;
  /** Which clock `waitMs` is from: `fake` when the fake's clock ran more than 10 ms ahead of real time (moved by a test). */
  readonly clock: 'real' | 'fake';
  /** What Retry-After asked for, in ms from the answer, or `null` when it sent none. */
  readonly retryAfterMs: number | null;
  /** Whether the wait is the client's own choice (judged for growth) rather than what Retry-After asked. */
  readonly own: boolean;
  /** Whether it came before Retry-After elapsed. */
  readonly early: boolean;
}

/** One recent request, for the live page and the per-client timeline. */
export interface RecentRequest {
  /** When it arrived, on the fake's clock and on real time. */
  readonly at: string;
  readonly realAt: string;
  readonly keyId: string;
  readonly clientId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly errorCode: string | null;
  readonly retryAfter: string | null;
  readonly chaos: boolean;
  readonly dropped: boolean;
  readonly latencyMs: number;
}

/** The report on one client of one key. */
export interface ClientSummary {
  readonly keyId: string;
  readonly clientId: string;
  readonly requests: number;
  /** Failures answered, by status (`dropped` for dropped connections), and how many were chaos. */
  readonly failures: Readonly<Record<string, number>>;
  readonly chaosAnswers: number;
  /** `fail` if a rule failed, else `inconclusive` if one was, else `pass` if one passed, else `not-applicable`. */
  readonly verdict: RuleVerdict;
  readonly rules: {
    readonly retryAfter: {
      readonly verdict: RuleVerdict;
      readonly reason: string;
      readonly answersWithRetryAfter: number;
      /** Requests that came after a Retry-After, judged against it. */
      readonly judgedRequests: number;
      readonly earlyRequests: number;
      /** How early the earliest one came, in ms. */
      readonly maxEarlyMs: number;
      /** Early requests an on-time retry of the same request followed: maybe a second copy of the app. */
      readonly ambiguousEarly: number;
    };
    readonly backoff: {
      readonly verdict: RuleVerdict;
      readonly reason: string;
      readonly retries: number;
      /** Waits that were the client's own choice. */
      readonly ownWaits: number;
      readonly chains: {
        readonly pass: number;
        readonly fail: number;
        readonly inconclusive: number;
      };
      /** The latest waits (at most 20). */
      readonly waits: readonly RetryWait[];
    };
    readonly ban: {
      readonly verdict: RuleVerdict;
      readonly reason: string;
      /** Rate-limit refusals (what can earn a ban; forced and chaos answers never do). */
      readonly refusals: number;
      /** Of those, the ones that came while a Retry-After still ran. */
      readonly violations: number;
      /** Bans this client's own violations helped earn (each ban once). */
      readonly bans: number;
    };
  };
  /** One readable line per rule that failed; empty when none did. */
  readonly problems: readonly string[];
  /** One readable line per rule that is inconclusive. */
  readonly doubts: readonly string[];
  /** First and last request, on the fake's clock and on real time. */
  readonly firstSeen: { readonly fake: string; readonly real: string };
  readonly lastSeen: { readonly fake: string; readonly real: string };
  /** The client's latest requests (at most 10), newest first. */
  readonly recent: readonly RecentRequest[];
}

/** The fake's clock when the report was made, against real time. */
interface ClockState {
  readonly mode: 'real' | 'shifted' | 'frozen';
  /** Fake's clock minus real time, in ms. */
  readonly offsetMs: number;
}

/** The whole report: `GET /__control/clients`, `fake.control.clients()`. */
export interface ClientReport {
  /** The fake's clock, and real time, when the report was made. */
  readonly now: string;
  readonly realNow: string;
  readonly clock: ClockState;
  /** The tolerances the rules were judged with (see the README's QA section). */
  readonly tolerance: typeof complianceTolerance;
  readonly clients: readonly ClientSummary[];
  /** The latest 25 requests of every client, newest first. */
  readonly recent: readonly RecentRequest[];
}

/** A deadline on both clocks: the client may retry once either has passed. */
interface Deadline {
  readonly fake: number;
  readonly real: number;
}

interface Chain {
  readonly identity: string;
  /**
   * The chain this one was opened from by a request early against it: its leading `inherited`
   * own waits are that chain's plus the early wait, dropped if the parent is retried on time
   * (then this is a second copy's chain, not a retry).
   */
  parent: Chain | undefined;
  inherited: number;
  /** 1 when the early wait that opened it was counted as an own wait. */
  tentativeOwn: number;
  /** Chains opened from this one whose inherited waits still stand: they carry its waits. */
  heirs: number;
  failedAt: number;
  failedReal: number;
  failedStatus: number;
  retryAfterMs: number | null;
  /** Ms to `X-RateLimit-Reset` when no Retry-After came: ky 2 waits for it then. */
  resetInMs: number | null;
  deadline: Deadline | undefined;
  readonly ownWaits: number[];
  /** Early requests counted against this chain, not yet shown to be a second copy's. */
  early: number;
  maxEarlyMs: number;
}

interface ClientRecord {
  readonly keyId: string;
  readonly clientId: string;
  requests: number;
  failures: Record<string, number>;
  chaosAnswers: number;
  withRetryAfter: number;
  judgedRequests: number;
  /** Early requests against chains that are closed or forgotten: confirmed. */
  early: number;
  maxEarlyMs: number;
  ambiguousEarly: number;
  retries: number;
  ownWaits: number;
  waits: RetryWait[];
  open: Chain[];
  judged: { pass: number; fail: number; inconclusive: number };
  firstFailure: string | undefined;
  firstDoubt: string | undefined;
  tooFew: string | undefined;
  refusals: number;
  violations: number;
  violationsSinceBan: number;
  bans: number;
  /** The key-wide deadline a rate-limit refusal or a ban set (any path). */
  keyDeadline: Deadline | undefined;
  first: { fake: number; real: number } | undefined;
  last: { fake: number; real: number };
  recent: ClientEvent[];
}

/** Statuses after which a client is expected to wait and retry. */
const failureStatuses = new Set([429, 500, 502, 503, 504]);

/**
 * What a Retry-After value asks for, in ms from the answer: delta-seconds, or an HTTP-date read
 * against real time (the fake writes its dates on real time; see policies/retry-after.ts).
 */
function retryAfterDelay(value: string, answeredReal: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - answeredReal);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}

/** How early a request is against a deadline: the smaller lead over both clocks (0: not early). */
function earlyBy(deadline: Deadline | undefined, event: ClientEvent): number {
  if (deadline === undefined) return 0;
  const lead = Math.min(deadline.fake - event.arrivedAt, deadline.real - event.arrivedReal);
  return lead > complianceTolerance.earlyToleranceMs ? lead : 0;
}

function countJudgement(c: ClientRecord, judgement: ChainJudgement): void {
  if (judgement.verdict === 'too-few') {
    c.tooFew ??= judgement.why;
    return;
  }
  c.judged[judgement.verdict] += 1;
  if (judgement.verdict === 'fail') c.firstFailure ??= judgement.why;
  if (judgement.verdict === 'inconclusive') c.firstDoubt ??= judgement.why;
}

/** Closes a chain: its waits are judged and its early requests become confirmed. */
function closeChain(c: ClientRecord, chain: Chain): void {
  // A chain whose heirs carry its waits is judged through them, once.
  if (chain.heirs === 0 && chain.ownWaits.length > 0) countJudgement(c, judgeChain(chain.ownWaits));
  // Only open chains are matched: a closed one needs no ancestry, and keeping it would keep
  // every chain a flood of early retries ever opened.
  chain.parent = undefined;
  c.early += chain.early;
  c.maxEarlyMs = Math.max(c.maxEarlyMs, chain.maxEarlyMs);
}

function retryAfterRule(c: ClientRecord, openEarly: number, openMaxEarly: number) {
  const early = c.early + openEarly;
  const maxEarlyMs = Math.max(c.maxEarlyMs, openMaxEarly);
  const numbers = {
    answersWithRetryAfter: c.withRetryAfter,
    judgedRequests: c.judgedRequests,
    earlyRequests: early,
    maxEarlyMs,
    ambiguousEarly: c.ambiguousEarly,
  };
  if (c.withRetryAfter === 0)
    return {
      verdict: 'not-applicable' as const,
      reason: 'no answer carried Retry-After',
      ...numbers,
    };
  if (early > 0)
    return {
      verdict: 'fail' as const,
      reason: `${early} request(s) came before Retry-After elapsed (the earliest ${seconds(maxEarlyMs)} early)`,
      ...numbers,
    };
  if (c.ambiguousEarly > 0)
    return {
      verdict: 'inconclusive' as const,
      reason: `${c.ambiguousEarly} request(s) came before a Retry-After given to this id elapsed, but an on-time retry of the same request followed: two copies of one app share the id, or the client retried early; send a distinct X-Client-Id per copy`,
      ...numbers,
    };
  if (c.judgedRequests === 0)
    return {
      verdict: 'inconclusive' as const,
      reason: 'the client never sent a request after a Retry-After (it gave up): nothing to judge',
      ...numbers,
    };
  return {
    verdict: 'pass' as const,
    reason: `${c.judgedRequests} request(s) after a Retry-After, none early`,
    ...numbers,
  };
}

/** The backoff rule over `c` (whose `judged` counts open chains) and the closed chains' counts. */
function backoffRule(c: ClientRecord, closed: ClientRecord['judged']) {
  const chains = {
    pass: c.judged.pass + closed.pass,
    fail: c.judged.fail + closed.fail,
    inconclusive: c.judged.inconclusive + closed.inconclusive,
  };
  const numbers = { retries: c.retries, ownWaits: c.ownWaits, chains, waits: [...c.waits] };
  if (chains.fail > 0)
    return { verdict: 'fail' as const, reason: c.firstFailure ?? '', ...numbers };
  if (chains.pass > 0)
    return {
      verdict: 'pass' as const,
      reason: `${chains.pass} chain(s) of retries backed off exponentially`,
      ...numbers,
    };
  if (chains.inconclusive > 0)
    return { verdict: 'inconclusive' as const, reason: c.firstDoubt ?? '', ...numbers };
  if (c.ownWaits > 0)
    return { verdict: 'inconclusive' as const, reason: c.tooFew ?? '', ...numbers };
  return {
    verdict: 'not-applicable' as const,
    reason:
      c.retries === 0
        ? 'the client never retried'
        : 'every wait was what Retry-After asked for: the client chose none (force 503 without Retry-After, or Retry-After: 0, to see its own backoff)',
    ...numbers,
  };
}

function banRule(c: ClientRecord) {
  const numbers = { refusals: c.refusals, violations: c.violations, bans: c.bans };
  if (c.bans > 0)
    return {
      verdict: 'fail' as const,
      reason: `earned ${c.bans} temporary ban(s) by retrying too early (${c.violations} request(s) refused while Retry-After ran)`,
      ...numbers,
    };
  if (c.refusals === 0)
    return {
      verdict: 'not-applicable' as const,
      reason: 'no rate-limit refusal (forced and chaos answers never lead to a ban)',
      ...numbers,
    };
  return {
    verdict: 'pass' as const,
    reason: `${c.refusals} rate-limit refusal(s), no ban earned`,
    ...numbers,
  };
}

function overall(verdicts: readonly RuleVerdict[]): RuleVerdict {
  for (const v of ['fail', 'inconclusive', 'pass'] as const) if (verdicts.includes(v)) return v;
  return 'not-applicable';
}

/** How a report shows a request's URL: its path and query, redacted. */
type ShowUrl = (url: URL) => string;

/** Records answers and judges clients; one per fake. */
export interface ClientReporter {
  /** Records one answered request. */
  record(event: ClientEvent): void;
  /** The report as of `now` (the fake's clock) and `realNow`; `showUrl` redacts a request's URL. */
  report(now: number, realNow: number, frozen: boolean, showUrl: ShowUrl): ClientReport;
  /** Forgets everything (a control reset). */
  clear(): void;
}

/** Creates an empty client reporter. */
export function createClientReporter(): ClientReporter {
  const clients = new Map<string, ClientRecord>();
  const perKey = new Map<string, number>();
  // Kept raw and shown (ISO times, redacted paths) only when a report asks.
  let recent: { event: ClientEvent; clientId: string }[] = [];

  // The last request's client: most requests come from the client before them.
  let last: { keyId: string; wanted: string; record: ClientRecord } | undefined;
  const recordOf = (keyId: string, wanted: string): ClientRecord => {
    if (last !== undefined && last.keyId === keyId && last.wanted === wanted) return last.record;
    const record = findRecord(keyId, wanted);
    last = { keyId, wanted, record };
    return record;
  };
  const findRecord = (keyId: string, wanted: string): ClientRecord => {
    const known = clients.get(`${keyId}\n${wanted}`);
    if (known !== undefined) return known;
    const clientId = (perKey.get(keyId) ?? 0) >= maxClientsPerKey ? '(other clients)' : wanted;
    const id = `${keyId}\n${clientId}`;
    let record = clients.get(id);
    if (record === undefined) {
      record = {
        keyId,
        clientId,
        requests: 0,
        failures: {},
        chaosAnswers: 0,
        withRetryAfter: 0,
        judgedRequests: 0,
        early: 0,
        maxEarlyMs: 0,
        ambiguousEarly: 0,
        retries: 0,
        ownWaits: 0,
        waits: [],
        open: [],
        judged: { pass: 0, fail: 0, inconclusive: 0 },
        firstFailure: undefined,
        firstDoubt: undefined,
        tooFew: undefined,
        refusals: 0,
        violations: 0,
        violationsSinceBan: 0,
        bans: 0,
        keyDeadline: undefined,
        first: undefined,
        last: { fake: 0, real: 0 },
        recent: [],
      };
      clients.set(id, record);
      perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);
    }
    return record;
  };

  /** Which open chain a request retries, and how early it is; opens none. */
  function matchChain(c: ClientRecord, identityOf: () => string, event: ClientEvent) {
    // Most requests come while no failure is open: nothing to match.
    if (c.open.length === 0) return { chain: undefined, earlyMs: 0 };
    const identity = identityOf();
    const candidates = c.open.filter((chain) => chain.identity === identity);
    // The latest failure whose Retry-After has elapsed: two copies of an app that each wait
    // what they were told are told apart by when they come back.
    const onTime = candidates.findLast((chain) => earlyBy(chain.deadline, event) === 0);
    if (onTime !== undefined) return { chain: onTime, earlyMs: 0 };
    // Early against all: most likely a retry of the latest failure.
    const newest = candidates.at(-1);
    return { chain: newest, earlyMs: newest === undefined ? 0 : earlyBy(newest.deadline, event) };
  }

  function record(event: ClientEvent): void {
    const c = recordOf(event.keyId, event.clientId);
    c.requests += 1;
    c.first ??= { fake: event.arrivedAt, real: event.arrivedReal };
    c.last = { fake: event.answeredAt, real: event.answeredReal };
    // Written only when a chain is open or a failure opens one: most requests need none.
    const identity = () => `${event.method} ${event.url.pathname}${event.url.search}`;

    // 1. Is it a retry, of which chain, and did it come before Retry-After elapsed?
    const { chain: matched, earlyMs } = matchChain(c, identity, event);
    const keyEarly = earlyBy(c.keyDeadline, event);
    let chain: Chain | undefined;
    let parent: Chain | undefined;
    if (matched !== undefined && earlyMs > 0) {
      // Early against the chain it would retry: a retry too soon, or a second copy of the app
      // starting its own chain. It opens a chain that carries the parent's waits; an on-time
      // retry of the parent later shows a second copy (then the early request is ambiguous).
      matched.early += 1;
      matched.maxEarlyMs = Math.max(matched.maxEarlyMs, earlyMs);
      c.judgedRequests += 1;
      parent = matched;
    } else if (matched !== undefined) {
      chain = matched;
      c.open.splice(c.open.indexOf(chain), 1);
      if (chain.early > 0) {
        c.ambiguousEarly += chain.early;
        chain.early = 0;
        chain.maxEarlyMs = 0;
        for (const heir of c.open) {
          if (heir.parent !== chain) continue;
          heir.ownWaits.splice(0, heir.inherited);
          heir.inherited = 0;
          c.ownWaits -= heir.tentativeOwn;
          heir.tentativeOwn = 0;
          heir.parent = undefined;
        }
        chain.heirs = 0;
      }
      if (chain.retryAfterMs !== null) c.judgedRequests += 1;
    } else if (c.keyDeadline !== undefined) {
      c.judgedRequests += 1;
    }
    const waited = chain ?? parent;
    let ownWait: number | undefined;
    if (waited !== undefined) {
      c.retries += 1;
      const realWaitMs = Math.max(0, event.arrivedReal - waited.failedReal);
      const fakeWaitMs = Math.max(0, event.arrivedAt - waited.failedAt);
      const waitMs = Math.max(realWaitMs, fakeWaitMs);
      const asked = waited.retryAfterMs;
      // Without Retry-After, a wait of a second or more for X-RateLimit-Reset after a 429 or 503
      // is the server's too (ky 2's fallback: core/retry-timing.js getRetryTimingHeader, used
      // for afterStatusCodes 413, 429, 503 only).
      const reset =
        (waited.failedStatus === 429 || waited.failedStatus === 503) &&
        waited.resetInMs !== null &&
        waited.resetInMs >= 1000
          ? waited.resetInMs
          : null;
      const told = asked ?? reset;
      const dictated =
        told !== null &&
        waitMs >= told - complianceTolerance.earlyToleranceMs &&
        waitMs <=
          told * (1 + complianceTolerance.dictatedShare) + complianceTolerance.dictatedSlackMs;
      if (!dictated) {
        ownWait = waitMs;
        c.ownWaits += 1;
        if (chain !== undefined) {
          chain.ownWaits.push(waitMs);
          trimWaits(chain);
        }
      }
      c.waits.push({
        afterStatus: waited.failedStatus,
        waitMs,
        realWaitMs,
        fakeWaitMs,
        // Both clocks tick alike unless the fake's was moved or frozen: name it only then.
        clock: fakeWaitMs > realWaitMs + complianceTolerance.earlyToleranceMs ? 'fake' : 'real',
        retryAfterMs: asked,
        own: !dictated,
        early: earlyMs > 0 || keyEarly > 0,
      });
      if (c.waits.length > waitsKept) c.waits.shift();
    }
    if (keyEarly > 0 && parent === undefined) {
      // Before the key's Retry-After (a rate limit or a ban), whichever request it is.
      c.early += 1;
      c.maxEarlyMs = Math.max(c.maxEarlyMs, keyEarly);
    }

    // 2. What did this answer tell the client?
    const delay =
      event.retryAfter === undefined
        ? undefined
        : retryAfterDelay(event.retryAfter, event.answeredReal);
    const deadline =
      delay === undefined
        ? undefined
        : { fake: event.answeredAt + delay, real: event.answeredReal + delay };
    if (delay !== undefined) c.withRetryAfter += 1;
    if (event.chaos) c.chaosAnswers += 1;
    if (event.refused) c.refusals += 1;
    if (event.violation) {
      c.violations += 1;
      c.violationsSinceBan += 1;
    }
    if (event.refused || event.errorCode === 'temporarily_banned') c.keyDeadline = deadline;
    if (event.dropped || failureStatuses.has(event.status)) {
      const name = event.dropped ? 'dropped' : String(event.status);
      c.failures[name] = (c.failures[name] ?? 0) + 1;
      const next: Chain = chain ?? {
        identity: identity(),
        parent,
        inherited: 0,
        tentativeOwn: 0,
        heirs: 0,
        failedAt: 0,
        failedReal: 0,
        failedStatus: 0,
        retryAfterMs: null,
        resetInMs: null,
        deadline: undefined,
        ownWaits: [],
        early: 0,
        maxEarlyMs: 0,
      };
      next.failedAt = event.answeredAt;
      next.failedReal = event.answeredReal;
      next.failedStatus = event.dropped ? 0 : event.status;
      next.retryAfterMs = delay ?? null;
      next.resetInMs = event.resetInMs ?? null;
      next.deadline = deadline;
      if (parent !== undefined && chain === undefined) {
        next.ownWaits.push(...parent.ownWaits.slice(-ownWaitsKept));
        if (ownWait !== undefined) next.ownWaits.push(ownWait);
        next.inherited = next.ownWaits.length;
        trimWaits(next);
        next.tentativeOwn = ownWait === undefined ? 0 : 1;
        parent.heirs += 1;
      }
      c.open.push(next);
      if (c.open.length > openChainsKept) closeChain(c, c.open.shift() as Chain);
    } else if (chain !== undefined) {
      closeChain(c, chain);
    } else if (parent !== undefined && ownWait !== undefined) {
      // An early retry that succeeded ends the parent's run of failures with one more wait.
      countJudgement(c, judgeChain([...parent.ownWaits, ownWait]));
      parent.heirs += 1;
    }

    recent.push({ event, clientId: c.clientId });
    if (recent.length > recentLength) recent.shift();
    c.recent.push(event);
    if (c.recent.length > clientRecentLength) c.recent.shift();
  }

  /** Charges a ban to every client of the key whose violations earned it (once each). */
  function chargeBan(keyId: string): void {
    for (const c of clients.values()) {
      if (c.keyId !== keyId || c.violationsSinceBan === 0) continue;
      c.bans += 1;
      c.violationsSinceBan = 0;
    }
  }

  const show = (event: ClientEvent, clientId: string, showUrl: ShowUrl): RecentRequest => ({
    at: new Date(event.arrivedAt).toISOString(),
    realAt: new Date(event.arrivedReal).toISOString(),
    keyId: event.keyId,
    clientId,
    method: event.method,
    // Redacted whole, then cut: a cut first could leave part of a secret.
    path: showUrl(event.url).slice(0, 200),
    status: event.dropped ? 0 : event.status,
    errorCode: event.errorCode ?? null,
    retryAfter: event.retryAfter ?? null,
    chaos: event.chaos,
    dropped: event.dropped,
    latencyMs: event.answeredAt - event.arrivedAt,
  });

  function summarise(c: ClientRecord, showUrl: ShowUrl): ClientSummary {
    // Open chains are judged as they stand, without closing them.
    const probe: ClientRecord = { ...c, judged: { pass: 0, fail: 0, inconclusive: 0 } };
    let openEarly = 0;
    let openMaxEarly = 0;
    for (const chain of c.open) {
      if (chain.heirs === 0 && chain.ownWaits.length > 0)
        countJudgement(probe, judgeChain(chain.ownWaits));
      openEarly += chain.early;
      openMaxEarly = Math.max(openMaxEarly, chain.maxEarlyMs);
    }
    const retryAfter = retryAfterRule(c, openEarly, openMaxEarly);
    const backoff = backoffRule(probe, c.judged);
    const ban = banRule(c);
    const named = [
      ['Retry-After', retryAfter],
      ['backoff', backoff],
      ['ban', ban],
    ] as const;
    const time = (t: { fake: number; real: number }) => ({
      fake: new Date(t.fake).toISOString(),
      real: new Date(t.real).toISOString(),
    });
    return {
      keyId: c.keyId,
      clientId: c.clientId,
      requests: c.requests,
      failures: { ...c.failures },
      chaosAnswers: c.chaosAnswers,
      verdict: overall([retryAfter.verdict, backoff.verdict, ban.verdict]),
      rules: { retryAfter, backoff, ban },
      problems: named.filter(([, r]) => r.verdict === 'fail').map(([n, r]) => `${n}: ${r.reason}`),
      doubts: named
        .filter(([, r]) => r.verdict === 'inconclusive')
        .map(([n, r]) => `${n}: ${r.reason}`),
      firstSeen: time(c.first ?? c.last),
      lastSeen: time(c.last),
      recent: c.recent.map((event) => show(event, c.clientId, showUrl)).reverse(),
    };
  }

  return {
    record(event) {
      record(event);
      if (event.banStarted) chargeBan(event.keyId);
    },
    report: (now, realNow, frozen, showUrl) => {
      const offsetMs = now - realNow;
      return {
        now: new Date(now).toISOString(),
        realNow: new Date(realNow).toISOString(),
        clock: {
          mode: frozen ? 'frozen' : Math.abs(offsetMs) > 1000 ? 'shifted' : 'real',
          offsetMs,
        },
        tolerance: complianceTolerance,
        clients: [...clients.values()].map((c) => summarise(c, showUrl)),
        recent: recent.map(({ event, clientId }) => show(event, clientId, showUrl)).reverse(),
      };
    },
    clear() {
      last = undefined;
      clients.clear();
      perKey.clear();
      recent = [];
    },
  };
}
