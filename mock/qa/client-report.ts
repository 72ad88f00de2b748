/**
 * The client compliance report: for each key and each client on it, every answer that told the
 * client to back off (429, 5xx, a dropped connection) and what the client did next, judged by the
 * interface's rule for clients (Limits, rule 2): retry only after `Retry-After`, back off
 * exponentially, and so never earn a ban.
 *
 * The fake cannot see which request retries which: it takes a client's next request after a
 * failure as its retry, and measures the wait from the moment the failure was answered, on the
 * fake's clock (real or virtual alike).
 */

import { redactUrl } from '../policies/log-redaction.ts';

/** How the rules are judged; documented in the README's QA section. */
const complianceTolerance = {
  /** A request this much or less before Retry-After elapsed is not early (timer granularity). */
  earlyToleranceMs: 10,
  /** Each judged wait must be at least this many times the one before (doubling with ±25% jitter passes). */
  growthFactor: 1.2,
  /** A wait from Retry-After up to this much longer is the server's choice, not the client's backoff. */
  dictatedSlackMs: 250,
} as const;

/** The most clients told apart per key; later ones share one entry. */
const maxClientsPerKey = 64;
/** The most recent requests kept for the live page. */
const recentLength = 25;
/** Waits kept per client for the report. */
const waitsKept = 20;

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
  readonly status: number;
  readonly errorCode: string | undefined;
  /** The answer's Retry-After header, if any. */
  readonly retryAfter: string | undefined;
  readonly chaos: boolean;
  readonly dropped: boolean;
}

/** A rule's verdict: `not-seen` when the client never met the situation the rule is about. */
export type RuleVerdict = 'pass' | 'fail' | 'not-seen';

/** One wait between a failure and the client's next request. */
export interface RetryWait {
  /** Status of the failure waited after (0: dropped connection). */
  readonly afterStatus: number;
  readonly waitMs: number;
  /** What Retry-After asked for, in ms from the answer, or `null` when it sent none. */
  readonly retryAfterMs: number | null;
  /** Whether the wait is the client's own choice (judged for growth) rather than what Retry-After asked. */
  readonly own: boolean;
}

/** The report on one client of one key. */
export interface ClientSummary {
  readonly keyId: string;
  readonly clientId: string;
  readonly requests: number;
  /** Failures answered, by status (`dropped` for dropped connections), and how many were chaos. */
  readonly failures: Readonly<Record<string, number>>;
  readonly chaosAnswers: number;
  readonly verdict: 'pass' | 'fail' | 'no-evidence';
  readonly rules: {
    readonly retryAfter: {
      readonly verdict: RuleVerdict;
      readonly answersWithRetryAfter: number;
      readonly earlyRequests: number;
      /** How early the earliest one came, in ms. */
      readonly maxEarlyMs: number;
    };
    readonly backoff: {
      readonly verdict: RuleVerdict;
      readonly retries: number;
      readonly judgedPairs: number;
      readonly nonGrowingPairs: number;
      /** The first pair of waits that did not grow, in ms. */
      readonly firstNonGrowing: readonly [number, number] | null;
      /** The latest waits. */
      readonly waits: readonly RetryWait[];
    };
    readonly ban: { readonly verdict: RuleVerdict; readonly bans: number };
  };
  /** One readable line per broken rule; empty when none is broken. */
  readonly problems: readonly string[];
  readonly lastSeen: string;
}

/** One recent request, for the live page. */
export interface RecentRequest {
  readonly at: string;
  readonly keyId: string;
  readonly clientId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly errorCode: string | null;
  readonly chaos: boolean;
  readonly dropped: boolean;
  readonly latencyMs: number;
}

/** The whole report: `GET /__control/clients`, `fake.control.clients()`. */
export interface ClientReport {
  readonly now: string;
  /** The tolerances the rules were judged with (see the README's QA section). */
  readonly tolerance: {
    readonly earlyToleranceMs: number;
    readonly growthFactor: number;
    readonly dictatedSlackMs: number;
  };
  readonly clients: readonly ClientSummary[];
  readonly recent: readonly RecentRequest[];
}

interface ClientRecord {
  readonly keyId: string;
  readonly clientId: string;
  requests: number;
  failures: Record<string, number>;
  chaosAnswers: number;
  withRetryAfter: number;
  early: number;
  maxEarlyMs: number;
  retries: number;
  judgedPairs: number;
  nonGrowing: number;
  firstNonGrowing: [number, number] | null;
  waits: RetryWait[];
  bans: number;
  lastSeen: number;
  // The episode in progress: the last failure's answer time and Retry-After, the last own wait.
  failedAt: number | undefined;
  failedStatus: number;
  failureRetryAfterMs: number | null;
  lastOwnWait: number | undefined;
  /** Epoch ms before which a request ignores the last Retry-After. */
  deadline: number;
  inBan: boolean;
}

/** Statuses after which a client is expected to wait and retry. */
const failureStatuses = new Set([429, 500, 502, 503, 504]);

/** Epoch ms a Retry-After value (delta-seconds or HTTP-date) points to, from `answeredAt`. */
function retryAfterDeadline(value: string, answeredAt: number): number | undefined {
  if (/^\d+$/.test(value.trim())) return answeredAt + Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)} s`;
}

function summarise(c: ClientRecord): ClientSummary {
  const retryAfter: RuleVerdict =
    c.withRetryAfter === 0 ? 'not-seen' : c.early > 0 ? 'fail' : 'pass';
  const backoff: RuleVerdict =
    c.judgedPairs === 0 ? 'not-seen' : c.nonGrowing > 0 ? 'fail' : 'pass';
  const ban: RuleVerdict = c.bans > 0 ? 'fail' : c.withRetryAfter === 0 ? 'not-seen' : 'pass';
  const problems: string[] = [];
  if (retryAfter === 'fail')
    problems.push(
      `Retry-After: ${c.early} request(s) came before Retry-After elapsed (the earliest ${seconds(c.maxEarlyMs)} early)`,
    );
  if (backoff === 'fail' && c.firstNonGrowing !== null) {
    const [a, b] = c.firstNonGrowing;
    problems.push(
      `backoff: ${c.nonGrowing} of ${c.judgedPairs} pair(s) of successive waits did not grow (first: ${seconds(a)} then ${seconds(b)}; each wait must be at least ${complianceTolerance.growthFactor}x the one before)`,
    );
  }
  if (ban === 'fail') problems.push(`ban: earned ${c.bans} temporary ban(s) by retrying too early`);
  const verdicts = [retryAfter, backoff, ban];
  return {
    keyId: c.keyId,
    clientId: c.clientId,
    requests: c.requests,
    failures: { ...c.failures },
    chaosAnswers: c.chaosAnswers,
    verdict: verdicts.includes('fail')
      ? 'fail'
      : verdicts.includes('pass')
        ? 'pass'
        : 'no-evidence',
    rules: {
      retryAfter: {
        verdict: retryAfter,
        answersWithRetryAfter: c.withRetryAfter,
        earlyRequests: c.early,
        maxEarlyMs: c.maxEarlyMs,
      },
      backoff: {
        verdict: backoff,
        retries: c.retries,
        judgedPairs: c.judgedPairs,
        nonGrowingPairs: c.nonGrowing,
        firstNonGrowing: c.firstNonGrowing,
        waits: [...c.waits],
      },
      ban: { verdict: ban, bans: c.bans },
    },
    problems,
    lastSeen: new Date(c.lastSeen).toISOString(),
  };
}

/** Records answers and judges clients; one per fake. */
export interface ClientReporter {
  /** Records one answered request. */
  record(event: ClientEvent): void;
  /** The report as of `now` (epoch ms of the fake's clock); `secrets` are redacted from paths. */
  report(now: number, secrets: readonly string[]): ClientReport;
  /** Forgets everything (a control reset). */
  clear(): void;
}

/** Creates an empty client reporter. */
export function createClientReporter(): ClientReporter {
  const clients = new Map<string, ClientRecord>();
  const perKey = new Map<string, number>();
  // Kept raw and shown (ISO times, redacted paths) only when a report asks.
  let recent: { event: ClientEvent; clientId: string }[] = [];

  const recordOf = (keyId: string, wanted: string): ClientRecord => {
    let clientId = wanted;
    if (!clients.has(`${keyId}\n${clientId}`) && (perKey.get(keyId) ?? 0) >= maxClientsPerKey)
      clientId = '(other clients)';
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
        early: 0,
        maxEarlyMs: 0,
        retries: 0,
        judgedPairs: 0,
        nonGrowing: 0,
        firstNonGrowing: null,
        waits: [],
        bans: 0,
        lastSeen: 0,
        failedAt: undefined,
        failedStatus: 0,
        failureRetryAfterMs: null,
        lastOwnWait: undefined,
        deadline: 0,
        inBan: false,
      };
      clients.set(id, record);
      perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);
    }
    return record;
  };

  function record(event: ClientEvent): void {
    const c = recordOf(event.keyId, event.clientId);
    const { arrivedAt, answeredAt } = event;
    c.requests += 1;
    c.lastSeen = answeredAt;
    // 1. Did it come before the last Retry-After elapsed?
    const earlyBy = c.deadline - arrivedAt;
    if (earlyBy > complianceTolerance.earlyToleranceMs) {
      c.early += 1;
      c.maxEarlyMs = Math.max(c.maxEarlyMs, earlyBy);
    }
    // 2. Is it a retry after a failure, and did the client's own waits grow?
    if (c.failedAt !== undefined) {
      c.retries += 1;
      const waitMs = Math.max(0, arrivedAt - c.failedAt);
      const asked = c.failureRetryAfterMs;
      const own =
        asked === null || waitMs < asked || waitMs > asked + complianceTolerance.dictatedSlackMs;
      if (own) {
        const before = c.lastOwnWait;
        if (before !== undefined) {
          c.judgedPairs += 1;
          if (!(waitMs > before && waitMs >= before * complianceTolerance.growthFactor)) {
            c.nonGrowing += 1;
            c.firstNonGrowing ??= [before, waitMs];
          }
        }
        c.lastOwnWait = waitMs;
      }
      c.waits.push({ afterStatus: c.failedStatus, waitMs, retryAfterMs: asked, own });
      if (c.waits.length > waitsKept) c.waits.shift();
    }
    // 3. What did this answer tell the client?
    const deadline =
      event.retryAfter === undefined ? undefined : retryAfterDeadline(event.retryAfter, answeredAt);
    if (deadline !== undefined) {
      c.withRetryAfter += 1;
      c.deadline = deadline;
    }
    if (event.chaos) c.chaosAnswers += 1;
    if (event.dropped || failureStatuses.has(event.status)) {
      const name = event.dropped ? 'dropped' : String(event.status);
      c.failures[name] = (c.failures[name] ?? 0) + 1;
      c.failedAt = answeredAt;
      c.failedStatus = event.dropped ? 0 : event.status;
      c.failureRetryAfterMs = deadline === undefined ? null : Math.max(0, deadline - answeredAt);
    } else {
      c.failedAt = undefined;
      c.lastOwnWait = undefined;
    }
    const banned = event.errorCode === 'temporarily_banned';
    if (banned && !c.inBan) c.bans += 1;
    c.inBan = banned;

    recent.push({ event, clientId: c.clientId });
    if (recent.length > recentLength) recent.shift();
  }

  const show = (
    { event, clientId }: (typeof recent)[number],
    secrets: readonly string[],
  ): RecentRequest => ({
    at: new Date(event.arrivedAt).toISOString(),
    keyId: event.keyId,
    clientId,
    method: event.method,
    path: redactUrl(event.url, secrets).slice(0, 200),
    status: event.dropped ? 0 : event.status,
    errorCode: event.errorCode ?? null,
    chaos: event.chaos,
    dropped: event.dropped,
    latencyMs: event.answeredAt - event.arrivedAt,
  });

  return {
    record,
    report: (now, secrets) => ({
      now: new Date(now).toISOString(),
      tolerance: complianceTolerance,
      clients: [...clients.values()].map(summarise),
      recent: recent.map((entry) => show(entry, secrets)).reverse(),
    }),
    clear() {
      clients.clear();
      perKey.clear();
      recent = [];
    },
  };
}
