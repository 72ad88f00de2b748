/**
 * The client compliance report: for each key and each client on it, every answer that told the
 * client to back off (429, 5xx, a dropped connection) and what the client did next, judged by the
 * interface's rule for clients (Limits, rule 2): retry only after `Retry-After`, back off
 * exponentially, and so never earn a ban; beside it, whether the client resent a create whose
 * outcome it could not know. The definition is the README's QA section.
 *
 * A client is told apart by its id (X-Client-Id); its copies (instances) by the connection each
 * request came on (client-instances.ts). A *chain* is one request retried within one instance:
 * a failure opens it, and the instance's next request with the same method, path and query (and
 * body, for a non-idempotent method) sent after the failure's answer left is its retry. Every
 * wait is measured on both clocks (the fake's, which tests may freeze and advance, and real
 * time, which a client sleeps on) and the longer reading counts.
 */

import { type ChainJudgement, judgeChain } from './backoff-judgement.ts';
import {
  type ClientInstances,
  createClientInstances,
  type Deadline,
  type Instance,
} from './client-instances.ts';
import {
  backoffRule,
  banRule,
  overall,
  type RuleNumbers,
  resentCreatesRule,
  retryAfterRule,
  ruleLabels,
} from './client-rules.ts';
import { LatestRing } from './latest-ring.ts';

export type {
  ClientEvent,
  ClientReport,
  ClientSummary,
  RecentRequest,
  RetryWait,
} from './client-report-shapes.ts';
export type { RuleVerdict } from './client-rules.ts';

import {
  type ClientEvent,
  type ClientReport,
  type ClientSummary,
  complianceTolerance,
  type RecentRequest,
  type RetryWait,
} from './client-report-shapes.ts';

/** The most clients told apart per key; later ones share one entry. */
const maxClientsPerKey = 64;
/** The most recent requests kept for the live page, over all clients. */
const recentLength = 25;
/** The most recent requests kept per client. */
const clientRecentLength = 10;
/** Waits kept per client for the report. */
const waitsKept = 20;
/** Open retry chains kept per instance (a client that gives up leaves one open). */
const openChainsKept = 16;
/** Non-idempotent requests kept per instance to see one resent before its answer. */
const sentKept = 8;
/** Requests (method and path) named in the resent-create observation. */
const resentNamed = 5;

interface Chain {
  readonly identity: string;
  failedAt: number;
  failedReal: number;
  /** When the failure's answer left, in the report's sequence. */
  failedSeq: number;
  failedStatus: number;
  /** The failure's outcome was unknown to the client (a 5xx or a dropped connection). */
  unknownOutcome: boolean;
  retryAfterMs: number | null;
  /** Ms to `X-RateLimit-Reset` when no Retry-After came: ky 2 waits for it then. */
  resetInMs: number | null;
  deadline: Deadline | undefined;
  /** Its first own waits: the ones judged. */
  readonly ownWaits: number[];
}

/**
 * A non-idempotent request as its instance keeps it, to know the same create sent again: its
 * URL as text (not the URL object: up to 8 creates for each of a client's 65 instances), when it
 * arrived and when its answer left (in the report's sequence).
 */
interface SentCreate {
  readonly method: string;
  readonly href: string;
  readonly bodyHash: ClientEvent['bodyHash'];
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
}

/** A key's clients; `mayOwe` is false while none of them has early requests towards a ban. */
interface KeyClients {
  readonly records: ClientRecord[];
  mayOwe: boolean;
}

interface ClientRecord {
  readonly keyId: string;
  readonly clientId: string;
  readonly key: KeyClients;
  readonly instances: ClientInstances<Chain, SentCreate>;
  requests: number;
  failures: Record<string, number>;
  chaosAnswers: number;
  stubbedAnswers: number;
  withRetryAfter: number;
  judgedRequests: number;
  early: number;
  maxEarlyMs: number;
  retries: number;
  ownWaits: number;
  waits: RetryWait[];
  /** Judged chains that are closed (open ones are judged when a report asks). */
  judged: { pass: number; fail: number; inconclusive: number };
  firstFailure: string | undefined;
  firstDoubt: string | undefined;
  tooFew: string | undefined;
  refusals: number;
  /** Its own refused requests that came before a Retry-After it was given elapsed. */
  violations: number;
  violationsTowardsBan: number;
  bans: number;
  /** Requests early only against a Retry-After given on another socket, which then came back on time. */
  doubts: number;
  /** Requests early only against a Retry-After given on another socket, not settled yet. */
  tentative: Tentative[];
  unknownOutcomes: number;
  resent: Record<string, number>;
  resentRequests: string[];
  /** The latest resent create named (method and URL): the same one again names nothing new. */
  resentLast: ClientEvent | undefined;
  first: { fake: number; real: number } | undefined;
  /** When the latest answer left, on the fake's clock and real time (numbers: no object per request). */
  lastFake: number;
  lastReal: number;
  readonly recent: LatestRing<ClientEvent>;
}

/** A request early only against a Retry-After given on another socket. */
interface Tentative {
  readonly deadline: Deadline;
  readonly identity: string;
  readonly earlyMs: number;
  readonly violation: boolean;
}

/** Unsettled early requests kept per client; older ones stay early. */
const tentativeKept = 16;

/** Statuses after which a client is expected to wait and retry. */
const failureStatuses = new Set([429, 500, 502, 503, 504]);
/** Statuses whose request the server may have acted on before failing. */
const unknownOutcomeStatuses = new Set([500, 502, 503, 504]);
/** Methods RFC 9110 calls idempotent: resending them is safe. */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Whether a method may create something twice when resent. */
export function isNonIdempotent(method: string): boolean {
  return !idempotentMethods.has(method);
}

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

/** How early a request is against a deadline given before it arrived: the smaller lead over both clocks (0: not early). */
function earlyBy(deadline: Deadline | undefined, event: ClientEvent): number {
  if (deadline === undefined || deadline.answeredSeq > event.arrivalSeq) return 0;
  const lead = Math.min(deadline.fake - event.arrivedAt, deadline.real - event.arrivedReal);
  return lead > complianceTolerance.earlyToleranceMs ? lead : 0;
}

function countJudgement(
  c: Pick<ClientRecord, 'judged' | 'firstFailure' | 'firstDoubt' | 'tooFew'>,
  judgement: ChainJudgement,
): void {
  if (judgement.verdict === 'too-few') {
    c.tooFew ??= judgement.why;
    return;
  }
  c.judged[judgement.verdict] += 1;
  if (judgement.verdict === 'fail') c.firstFailure ??= judgement.why;
  if (judgement.verdict === 'inconclusive') c.firstDoubt ??= judgement.why;
}

function newRecord(keyId: string, clientId: string, key: KeyClients): ClientRecord {
  return {
    keyId,
    clientId,
    key,
    instances: createClientInstances<Chain, SentCreate>(sentKept),
    requests: 0,
    failures: {},
    chaosAnswers: 0,
    stubbedAnswers: 0,
    withRetryAfter: 0,
    judgedRequests: 0,
    early: 0,
    maxEarlyMs: 0,
    retries: 0,
    ownWaits: 0,
    waits: [],
    judged: { pass: 0, fail: 0, inconclusive: 0 },
    firstFailure: undefined,
    firstDoubt: undefined,
    tooFew: undefined,
    refusals: 0,
    violations: 0,
    violationsTowardsBan: 0,
    bans: 0,
    doubts: 0,
    tentative: [],
    unknownOutcomes: 0,
    resent: {},
    resentRequests: [],
    resentLast: undefined,
    first: undefined,
    lastFake: 0,
    lastReal: 0,
    recent: new LatestRing(clientRecentLength),
  };
}

/** How a report shows a request's URL: its path and query, redacted. */
type ShowUrl = (url: URL) => string;

/** Records answers and judges clients; one per fake. */
export interface ClientReporter {
  /** Notes a request's arrival (before it is answered); returns its place in the sequence. */
  arrive(keyId: string, clientId: string, connection: string, oneCopy: boolean): number;
  /** Records one answered request. */
  record(event: ClientEvent): void;
  /** The report as of `now` (the fake's clock) and `realNow`; `showUrl` redacts a request's URL. */
  report(now: number, realNow: number, frozen: boolean, showUrl: ShowUrl): ClientReport;
  /** Forgets everything (a control reset). */
  clear(): void;
}

/**
 * What a retry repeats: the method, path and query, and for a create its body's hash. Built only
 * when a chain, a Retry-After told on a connection or a settling doubt asks for it by text.
 */
function identityOf(event: ClientEvent): string {
  const { method, url, bodyHash } = event;
  const target = `${method} ${url.pathname}${url.search}`;
  return bodyHash === undefined ? target : `${target}#${bodyHash}`;
}

/** Whether a create kept and a new one have one identity (identityOf), told without building it. */
function sameCreate(sent: SentCreate, event: ClientEvent): boolean {
  if (sent.method !== event.method || sent.bodyHash !== event.bodyHash) return false;
  if (sent.href === event.url.href) return true;
  // Another host (fake.fetch answers every host it allows): the path and query decide.
  const url = new URL(sent.href);
  return url.pathname === event.url.pathname && url.search === event.url.search;
}

/** Whether an earlier create overlaps this one: either arrived while the other was unanswered. */
function overlaps(sent: SentCreate, event: ClientEvent, answeredSeq: number): boolean {
  const arrived = sent.arrivalSeq;
  return (
    (arrived < event.arrivalSeq && sent.answeredSeq > event.arrivalSeq) ||
    (event.arrivalSeq < arrived && answeredSeq > arrived)
  );
}

/**
 * How a request stands against the Retry-Afters it was given: the most it came early where that
 * counts, and the largest lead against one given on another socket (a copy's, perhaps).
 */
interface Leads {
  early: number;
  otherSocket: Deadline | undefined;
  otherLead: number;
}

/** Adds one deadline's lead to `leads` (none when the request is not early against it). */
function weighDeadline(
  leads: Leads,
  instances: ClientInstances<Chain, SentCreate>,
  event: ClientEvent,
  deadline: Deadline | undefined,
): void {
  const lead = earlyBy(deadline, event);
  if (lead === 0 || deadline === undefined) return;
  if (instances.decides(event.connection, deadline)) leads.early = Math.max(leads.early, lead);
  else if (lead > leads.otherLead) {
    leads.otherSocket = deadline;
    leads.otherLead = lead;
  }
}

/** Whether an answer tells the client to wait and retry. */
function isFailure(event: ClientEvent): boolean {
  return event.dropped || failureStatuses.has(event.status);
}

/** Creates an empty client reporter. */
export function createClientReporter(): ClientReporter {
  const clients = new Map<string, ClientRecord>();
  /** Each key's clients: a request's key is forgiven or charged without walking every client. */
  const byKey = new Map<string, KeyClients>();
  let seq = 0;
  // Kept raw and shown (ISO times, redacted paths) only when a report asks: each request with
  // the client it was counted for (`(other clients)` past 64), side by side.
  let recentEvents = new LatestRing<ClientEvent>(recentLength);
  let recentClients = new LatestRing<string>(recentLength);
  // The request being recorded and its identity, built once if at all.
  let identityFor: ClientEvent | undefined;
  let identityText = '';
  const identity = (event: ClientEvent): string => {
    if (identityFor !== event) {
      identityText = identityOf(event);
      identityFor = event;
    }
    return identityText;
  };
  // One per reporter, filled afresh for each request: no object per request.
  const leads: Leads = { early: 0, otherSocket: undefined, otherLead: 0 };

  // The last request's client: most requests come from the client before them.
  let lastKeyId: string | undefined;
  let lastWanted = '';
  let lastRecord: ClientRecord | undefined;
  const recordOf = (keyId: string, wanted: string): ClientRecord => {
    if (lastRecord !== undefined && lastKeyId === keyId && lastWanted === wanted) return lastRecord;
    let record = clients.get(`${keyId}\n${wanted}`);
    if (record === undefined) {
      let key = byKey.get(keyId);
      if (key === undefined) {
        key = { records: [], mayOwe: false };
        byKey.set(keyId, key);
      }
      const clientId = key.records.length >= maxClientsPerKey ? '(other clients)' : wanted;
      const id = `${keyId}\n${clientId}`;
      record = clients.get(id);
      if (record === undefined) {
        record = newRecord(keyId, clientId, key);
        clients.set(id, record);
        key.records.push(record);
      }
    }
    lastKeyId = keyId;
    lastWanted = wanted;
    lastRecord = record;
    return record;
  };

  /** Closes a chain: its own waits are judged. */
  function closeChain(c: ClientRecord, chain: Chain): void {
    if (chain.ownWaits.length > 0) countJudgement(c, judgeChain(chain.ownWaits));
  }

  /** The latest failure of this instance the request retries: answered before it arrived, same identity. */
  function retried(instance: Instance<Chain, SentCreate>, event: ClientEvent) {
    let found: Chain | undefined;
    for (const chain of instance.open)
      if (
        chain.identity === identity(event) &&
        chain.failedSeq < event.arrivalSeq &&
        (found === undefined || chain.failedSeq > found.failedSeq)
      )
        found = chain;
    return found;
  }

  /**
   * A request on the socket a Retry-After was given on, on time for it, after another socket's
   * request came early against it: that socket's client kept its own schedule, so the early one
   * was another copy's (or this client's on a second socket): a doubt, not early.
   */
  function settleTentative(
    c: ClientRecord,
    event: ClientEvent,
    keyDeadlineHere: Deadline | undefined,
  ): void {
    if (c.tentative.length === 0) return;
    c.tentative = c.tentative.filter((t) => {
      const onTime =
        t.deadline.connection === event.connection &&
        (t.identity === identity(event) || t.deadline === keyDeadlineHere) &&
        earlyBy(t.deadline, event) === 0;
      if (!onTime) return true;
      c.early -= 1;
      c.doubts += 1;
      if (t.violation) {
        c.violations -= 1;
        c.violationsTowardsBan = Math.max(0, c.violationsTowardsBan - 1);
      }
      return false;
    });
  }

  /**
   * Step 1 of recording a request: did it come before a Retry-After elapsed? Early against one
   * given on its own connection (or to a client that declared one copy per id): early. Early only
   * against one given on another socket: early until that socket comes back on time for it
   * (another copy keeping its own schedule), then a doubt. Returns whether its wait is a doubt.
   */
  function judgeArrival(
    c: ClientRecord,
    instance: Instance<Chain, SentCreate>,
    chain: Chain | undefined,
    event: ClientEvent,
  ): boolean {
    const { instances } = c;
    const toldHere = instances.told(event.connection);
    const byRequest = toldHere?.byRequest;
    const ownTold =
      byRequest === undefined || byRequest.size === 0 ? undefined : byRequest.get(identity(event));
    leads.early = 0;
    leads.otherSocket = undefined;
    leads.otherLead = 0;
    weighDeadline(leads, instances, event, chain?.deadline);
    weighDeadline(leads, instances, event, instance.keyDeadline);
    weighDeadline(leads, instances, event, ownTold);
    weighDeadline(leads, instances, event, toldHere?.keyDeadline);
    settleTentative(c, event, toldHere?.keyDeadline);
    // On time for what its own socket was told for this request: that socket keeps its own
    // schedule, so being early only for another's is a doubt at once.
    let doubted = false;
    if (
      leads.early === 0 &&
      leads.otherSocket !== undefined &&
      ownTold !== undefined &&
      ownTold.answeredSeq < event.arrivalSeq &&
      earlyBy(ownTold, event) === 0
    ) {
      leads.otherSocket = undefined;
      doubted = true;
      c.doubts += 1;
    }
    if ((chain !== undefined && chain.retryAfterMs !== null) || instance.keyDeadline !== undefined)
      c.judgedRequests += 1;
    if (leads.early > 0 || leads.otherSocket !== undefined) countEarly(c, event);
    return leads.early === 0 && (leads.otherSocket !== undefined || doubted);
  }

  /** Counts an early request (as `leads` has it): a violation if refused, tentative if a doubt. */
  function countEarly(c: ClientRecord, event: ClientEvent): void {
    c.early += 1;
    const violation = event.refused;
    if (violation) {
      c.violations += 1;
      c.violationsTowardsBan += 1;
      c.key.mayOwe = true;
    }
    if (leads.early > 0) c.maxEarlyMs = Math.max(c.maxEarlyMs, leads.early);
    else if (leads.otherSocket !== undefined) {
      c.tentative.push({
        deadline: leads.otherSocket,
        identity: identity(event),
        earlyMs: leads.otherLead,
        violation,
      });
      if (c.tentative.length > tentativeKept) {
        const settled = c.tentative.shift() as Tentative;
        c.maxEarlyMs = Math.max(c.maxEarlyMs, settled.earlyMs);
      }
    }
  }

  /** A create sent again while an earlier one of the same body was unanswered: the client timed out. */
  function resentBeforeAnswer(
    instance: Instance<Chain, SentCreate>,
    event: ClientEvent,
    answeredSeq: number,
  ): boolean {
    const { sent } = instance;
    let overlapping = false;
    for (let index = 0; index < sent.size && !overlapping; index++) {
      const earlier = sent.at(index);
      overlapping = overlaps(earlier, event, answeredSeq) && sameCreate(earlier, event);
    }
    const { method, url, bodyHash, arrivalSeq } = event;
    sent.push({ method, href: url.href, bodyHash, arrivalSeq, answeredSeq });
    return overlapping;
  }

  function noteResent(c: ClientRecord, cause: string, event: ClientEvent): void {
    c.resent[cause] = (c.resent[cause] ?? 0) + 1;
    // The same method and URL as the last one named names the same request (or the list was full).
    const before = c.resentLast;
    if (
      before !== undefined &&
      before.method === event.method &&
      before.url.href === event.url.href
    )
      return;
    c.resentLast = event;
    const named = `${event.method} ${event.url.pathname}`;
    if (!c.resentRequests.includes(named) && c.resentRequests.length < resentNamed)
      c.resentRequests.push(named);
  }

  /** A create: resent after a failure whose outcome the client could not know, or before its answer. */
  function noteCreate(
    c: ClientRecord,
    instance: Instance<Chain, SentCreate>,
    chain: Chain | undefined,
    event: ClientEvent,
    answeredSeq: number,
  ): void {
    if (event.possibleCopy === true) noteResent(c, 'redispatch', event);
    else if (chain?.unknownOutcome === true)
      noteResent(c, chain.failedStatus === 0 ? 'dropped' : String(chain.failedStatus), event);
    else if (resentBeforeAnswer(instance, event, answeredSeq)) noteResent(c, 'timeout', event);
  }

  /** A retry's wait: the client's own (judged for growth) unless Retry-After or a reset asked for it. */
  function noteRetry(c: ClientRecord, chain: Chain, event: ClientEvent, doubtful: boolean): void {
    c.retries += 1;
    const realWaitMs = Math.max(0, event.arrivedReal - chain.failedReal);
    const fakeWaitMs = Math.max(0, event.arrivedAt - chain.failedAt);
    const waitMs = Math.max(realWaitMs, fakeWaitMs);
    const asked = chain.retryAfterMs;
    // Without Retry-After, a wait of a second or more for X-RateLimit-Reset after a 429 or 503
    // is the server's too (ky 2's fallback: core/retry-timing.js getRetryTimingHeader, used
    // for afterStatusCodes 413, 429, 503 only).
    const reset =
      (chain.failedStatus === 429 || chain.failedStatus === 503) &&
      chain.resetInMs !== null &&
      chain.resetInMs >= 1000
        ? chain.resetInMs
        : null;
    const told = asked ?? reset;
    const dictated =
      told !== null &&
      waitMs >= told - complianceTolerance.earlyToleranceMs &&
      waitMs <=
        told * (1 + complianceTolerance.dictatedShare) + complianceTolerance.dictatedSlackMs;
    // A doubt's wait may be the time between two copies' requests: not judged.
    if (!dictated && !doubtful) {
      c.ownWaits += 1;
      if (chain.ownWaits.length < complianceTolerance.judgedWaits) chain.ownWaits.push(waitMs);
    }
    c.waits.push({
      afterStatus: chain.failedStatus,
      waitMs,
      realWaitMs,
      fakeWaitMs,
      // Both clocks tick alike unless the fake's was moved or frozen: name it only then.
      clock: fakeWaitMs > realWaitMs + complianceTolerance.earlyToleranceMs ? 'fake' : 'real',
      retryAfterMs: asked,
      own: !dictated && !doubtful,
      early: leads.early > 0,
    });
    if (c.waits.length > waitsKept) c.waits.shift();
  }

  /** Step 2 of recording a request: what did its answer tell the client? */
  function noteAnswer(
    c: ClientRecord,
    instance: Instance<Chain, SentCreate>,
    chain: Chain | undefined,
    event: ClientEvent,
    answeredSeq: number,
  ): void {
    const delay =
      event.retryAfter === undefined
        ? undefined
        : retryAfterDelay(event.retryAfter, event.answeredReal);
    const deadline: Deadline | undefined =
      delay === undefined
        ? undefined
        : {
            fake: event.answeredAt + delay,
            real: event.answeredReal + delay,
            answeredSeq,
            connection: event.connection,
          };
    if (delay !== undefined) c.withRetryAfter += 1;
    if (event.chaos) c.chaosAnswers += 1;
    if (event.stubbed) c.stubbedAnswers += 1;
    if (event.refused) c.refusals += 1;
    if (event.refused || event.errorCode === 'temporarily_banned') {
      instance.keyDeadline = deadline;
      c.instances.tellKey(event.connection, deadline);
    }
    const unknownOutcome = event.dropped || unknownOutcomeStatuses.has(event.status);
    if (event.bodyHash !== undefined && unknownOutcome) c.unknownOutcomes += 1;
    if (isFailure(event)) {
      const name = event.dropped ? 'dropped' : String(event.status);
      c.failures[name] = (c.failures[name] ?? 0) + 1;
      const next: Chain = chain ?? {
        identity: identity(event),
        ownWaits: [],
        failedAt: 0,
        failedReal: 0,
        failedSeq: 0,
        failedStatus: 0,
        unknownOutcome: false,
        retryAfterMs: null,
        resetInMs: null,
        deadline: undefined,
      };
      next.failedAt = event.answeredAt;
      next.failedReal = event.answeredReal;
      next.failedSeq = answeredSeq;
      next.failedStatus = event.dropped ? 0 : event.status;
      next.unknownOutcome = unknownOutcome;
      next.retryAfterMs = delay ?? null;
      next.resetInMs = event.resetInMs ?? null;
      next.deadline = deadline;
      if (deadline !== undefined) c.instances.tell(event.connection, identity(event), deadline);
      instance.open.push(next);
      if (instance.open.length > openChainsKept) closeChain(c, instance.open.shift() as Chain);
    } else if (chain !== undefined) {
      closeChain(c, chain);
    }
  }

  function record(event: ClientEvent): ClientRecord {
    const answeredSeq = ++seq;
    const c = recordOf(event.keyId, event.clientId);
    const instance = c.instances.instanceOf(event.connection);
    c.requests += 1;
    c.first ??= { fake: event.arrivedAt, real: event.arrivedReal };
    c.lastFake = event.answeredAt;
    c.lastReal = event.answeredReal;
    // 1. Is it a retry, of which failure, and did it come before a Retry-After elapsed?
    const chain = instance.open.length === 0 ? undefined : retried(instance, event);
    if (chain !== undefined) instance.open.splice(instance.open.indexOf(chain), 1);
    const doubtful = judgeArrival(c, instance, chain, event);
    if (event.bodyHash !== undefined) noteCreate(c, instance, chain, event, answeredSeq);
    if (chain !== undefined) noteRetry(c, chain, event, doubtful);
    // 2. What did this answer tell the client?
    noteAnswer(c, instance, chain, event, answeredSeq);

    recentEvents.push(event);
    recentClients.push(c.clientId);
    c.recent.push(event);
    return c;
  }

  /**
   * Charges a ban to each client of the key whose own early requests were among those that
   * earned it (the key's count since it last admitted a request), once each.
   */
  function chargeBan(key: KeyClients): void {
    if (!key.mayOwe) return;
    key.mayOwe = false;
    for (const c of key.records) {
      if (c.violationsTowardsBan === 0) continue;
      c.bans += 1;
      c.violationsTowardsBan = 0;
    }
  }

  /** The key admitted a request (or a ban ended): early requests before it earn no ban. */
  function forgiveKey(key: KeyClients): void {
    if (!key.mayOwe) return;
    key.mayOwe = false;
    for (const c of key.records) c.violationsTowardsBan = 0;
  }

  const show = (event: ClientEvent, clientId: string, showUrl: ShowUrl): RecentRequest => ({
    at: new Date(event.arrivedAt).toISOString(),
    realAt: new Date(event.arrivedReal).toISOString(),
    keyId: event.keyId,
    clientId,
    connection: event.connection,
    method: event.method,
    // Redacted whole, then cut: a cut first could leave part of a secret.
    path: showUrl(event.url).slice(0, 200),
    status: event.dropped ? 0 : event.status,
    errorCode: event.errorCode ?? null,
    retryAfter: event.retryAfter ?? null,
    chaos: event.chaos,
    stubbed: event.stubbed,
    dropped: event.dropped,
    latencyMs: event.answeredAt - event.arrivedAt,
  });

  function summarise(c: ClientRecord, showUrl: ShowUrl): ClientSummary {
    // Open chains are judged as they stand, without closing them.
    const probe = {
      judged: { ...c.judged },
      firstFailure: c.firstFailure,
      firstDoubt: c.firstDoubt,
      tooFew: c.tooFew,
    };
    const { instances } = c;
    for (const instance of instances.all())
      for (const chain of instance.open)
        if (chain.ownWaits.length > 0) countJudgement(probe, judgeChain(chain.ownWaits));
    const numbers: RuleNumbers = {
      ...c,
      ...probe,
      chains: probe.judged,
      ambiguousEarly: c.doubts,
      maxEarlyMs: Math.max(c.maxEarlyMs, ...c.tentative.map((t) => t.earlyMs)),
    };
    const rules = {
      retryAfter: retryAfterRule(numbers),
      backoff: backoffRule(numbers, [...c.waits]),
      ban: banRule(numbers),
      resentCreates: resentCreatesRule(numbers),
    };
    const named = (Object.keys(ruleLabels) as (keyof typeof ruleLabels)[]).map(
      (rule) => [ruleLabels[rule], rules[rule]] as const,
    );
    const last = { fake: c.lastFake, real: c.lastReal };
    const time = (t: { fake: number; real: number }) => ({
      fake: new Date(t.fake).toISOString(),
      real: new Date(t.real).toISOString(),
    });
    return {
      keyId: c.keyId,
      clientId: c.clientId,
      requests: c.requests,
      connections: instances.connections(),
      oneCopy: instances.oneCopy(),
      failures: { ...c.failures },
      chaosAnswers: c.chaosAnswers,
      stubbedAnswers: c.stubbedAnswers,
      verdict: overall(named.map(([, r]) => r.verdict)),
      rules,
      problems: named.filter(([, r]) => r.verdict === 'fail').map(([n, r]) => `${n}: ${r.reason}`),
      doubts: named
        .filter(([, r]) => r.verdict === 'inconclusive')
        .map(([n, r]) => `${n}: ${r.reason}`),
      firstSeen: time(c.first ?? last),
      lastSeen: time(last),
      recent: c.recent.newestFirst().map((event) => show(event, c.clientId, showUrl)),
    };
  }

  return {
    arrive(keyId, clientId, connection, oneCopy) {
      const arrivalSeq = ++seq;
      recordOf(keyId, clientId).instances.note(connection, oneCopy);
      return arrivalSeq;
    },
    record(event) {
      const { key } = record(event);
      if (event.banStarted) chargeBan(key);
      else if (event.keyViolations === 0) forgiveKey(key);
    },
    report: (now, realNow, frozen, showUrl) => {
      const offsetMs = now - realNow;
      const recentClientIds = recentClients.newestFirst();
      return {
        now: new Date(now).toISOString(),
        realNow: new Date(realNow).toISOString(),
        clock: {
          mode: frozen ? 'frozen' : Math.abs(offsetMs) > 1000 ? 'shifted' : 'real',
          offsetMs,
        },
        tolerance: complianceTolerance,
        clients: [...clients.values()].map((c) => summarise(c, showUrl)),
        recent: recentEvents
          .newestFirst()
          .map((event, index) => show(event, recentClientIds[index] as string, showUrl)),
      };
    },
    clear() {
      lastRecord = undefined;
      clients.clear();
      byKey.clear();
      recentEvents = new LatestRing(recentLength);
      recentClients = new LatestRing(recentLength);
      identityFor = undefined;
    },
  };
}
