/**
 * The client compliance report's recording: for each key and each client on it, every answer
 * that told the client to back off (429, 5xx, a dropped connection) and what the client did
 * next, judged by the interface's rule for clients (Limits, rule 2: retry only after
 * `Retry-After`, back off exponentially, never earn a ban), and whether it resent a create whose
 * outcome it could not know. The README's QA section is the definition.
 *
 * A client is told apart by its id (X-Client-Id), its copies by their connections
 * (client-instances.ts). A *chain* is one request retried within one instance: a failure opens
 * it, and the instance's next request with the same method, path and query (and body, for a
 * non-idempotent method) sent after the failure's answer left is its retry. Every wait is read
 * on both clocks (the fake's, which tests may freeze and advance, and real time, which a client
 * sleeps on) and the longer reading counts. What is kept of each client: client-record.ts.
 */

import {
  type Chain,
  type Deadline,
  earlyBy,
  type Instance,
  type Leads,
  retryAfterDelay,
} from './client-instances.ts';
import { ClientRecord, type KeyClients, type ShowUrl, shownRequest } from './client-record.ts';
import {
  type ClientEvent,
  type ClientReport,
  complianceTolerance,
} from './client-report-shapes.ts';
import { LatestRing } from './latest-ring.ts';

export type {
  ClientEvent,
  ClientReport,
  ClientSummary,
  RecentRequest,
  RetryWait,
} from './client-report-shapes.ts';
export type { RuleVerdict } from './client-rules.ts';

/** The most clients told apart per key; later ones share one entry. */
const maxClientsPerKey = 64;
/** The most recent requests kept for the live page, over all clients. */
const recentLength = 25;
/** Waits kept per client for the report. */
const waitsKept = 20;
/** Open retry chains kept per instance (a client that gives up leaves one open). */
const openChainsKept = 16;
/** Unsettled early requests kept per client; older ones stay early. */
const tentativeKept = 16;

/** Statuses after which a client is expected to wait and retry. */
const failureStatuses = new Set([429, 500, 502, 503, 504]);
/** Statuses whose request the server may have acted on before failing. */
const unknownOutcomeStatuses = new Set([500, 502, 503, 504]);

/** Records answers and judges clients; one per fake, a new one at each reset. */
export class ClientReporter {
  readonly #clients = new Map<string, ClientRecord>();
  /** Each key's clients: a request's key is forgiven or charged without walking every client. */
  readonly #byKey = new Map<string, KeyClients>();
  // Kept raw and shown (ISO times, redacted paths) only when a report asks: each request with
  // the client it was counted for (`(other clients)` past 64), side by side.
  readonly #recentEvents = new LatestRing<ClientEvent>(recentLength);
  readonly #recentClients = new LatestRing<string>(recentLength);
  #identityFor: ClientEvent | undefined;
  #identityText = '';
  // One per reporter, filled afresh for each request: no object per request.
  readonly #leads: Leads = { early: 0, otherSocket: undefined, otherLead: 0 };
  // The last request's client: most requests come from the client before them.
  #lastWanted = '';
  #lastRecord: ClientRecord | undefined;

  /** Records one answered request. */
  record(event: ClientEvent): void {
    const c = this.#recordOf(event.keyId, event.clientId);
    const instance = c.instances.instanceOf(event.connection, event.oneCopy);
    c.requests += 1;
    c.first ??= { fake: event.arrivedAt, real: event.arrivedReal };
    c.lastFake = event.answeredAt;
    c.lastReal = event.answeredReal;
    // 1. Is it a retry, of which failure, and did it come before a Retry-After elapsed?
    const chain = instance.open.length === 0 ? undefined : this.#retried(instance, event);
    if (chain !== undefined) instance.open.splice(instance.open.indexOf(chain), 1);
    const doubtful = this.#judgeArrival(c, instance, chain, event);
    if (event.bodyHash !== undefined) c.noteCreate(instance, chain, event);
    if (chain !== undefined) this.#noteRetry(c, chain, event, doubtful);
    // 2. What did this answer tell the client?
    this.#noteAnswer(c, instance, chain, event);
    this.#recentEvents.push(event);
    this.#recentClients.push(c.clientId);
    c.recent.push(event);
    // A ban is charged to each client of the key whose own early requests were among those that
    // earned it (the key's count since it last admitted a request), once each; a request the key
    // admitted (or a ban's end) forgives them all.
    const { key } = c;
    if (key.mayOwe && (event.banStarted || event.keyViolations === 0)) {
      key.mayOwe = false;
      for (const other of key.records) {
        if (event.banStarted && other.violationsTowardsBan > 0) other.bans += 1;
        other.violationsTowardsBan = 0;
      }
    }
  }

  /** The report as of `now` (the fake's clock) and `realNow`; `showUrl` redacts a request's path and query. */
  report(now: number, realNow: number, frozen: boolean, showUrl: ShowUrl): ClientReport {
    const offsetMs = now - realNow;
    const recentClientIds = this.#recentClients.newestFirst();
    return {
      now: new Date(now).toISOString(),
      realNow: new Date(realNow).toISOString(),
      clock: {
        mode: frozen ? 'frozen' : Math.abs(offsetMs) > 1000 ? 'shifted' : 'real',
        offsetMs,
      },
      tolerance: complianceTolerance,
      clients: [...this.#clients.values()].map((c) => c.summary(showUrl)),
      recent: this.#recentEvents
        .newestFirst()
        .map((event, index) => shownRequest(event, recentClientIds[index] as string, showUrl)),
    };
  }

  /**
   * What a retry repeats: the method, path and query, and for a create its body's hash. Built
   * once per request, and only when a chain, a Retry-After told on a connection or a settling
   * doubt asks for it by text.
   */
  #identity(event: ClientEvent): string {
    if (this.#identityFor !== event) {
      const { method, path, query, bodyHash } = event;
      const target = `${method} ${path}${query}`;
      this.#identityText = bodyHash === undefined ? target : `${target}#${bodyHash}`;
      this.#identityFor = event;
    }
    return this.#identityText;
  }

  /** The record of a key's client; past 64 clients on a key, the one they share. */
  #recordOf(keyId: string, wanted: string): ClientRecord {
    const last = this.#lastRecord;
    if (last !== undefined && last.keyId === keyId && this.#lastWanted === wanted) return last;
    let record = this.#clients.get(`${keyId}\n${wanted}`);
    if (record === undefined) {
      let key = this.#byKey.get(keyId);
      if (key === undefined) {
        key = { records: [], mayOwe: false };
        this.#byKey.set(keyId, key);
      }
      const clientId = key.records.length >= maxClientsPerKey ? '(other clients)' : wanted;
      const id = `${keyId}\n${clientId}`;
      record = this.#clients.get(id);
      if (record === undefined) {
        record = new ClientRecord(keyId, clientId, key);
        this.#clients.set(id, record);
        key.records.push(record);
      }
    }
    this.#lastWanted = wanted;
    this.#lastRecord = record;
    return record;
  }

  /** The latest failure of this instance the request retries: answered before it arrived, same identity. */
  #retried(instance: Instance, event: ClientEvent) {
    let found: Chain | undefined;
    for (const chain of instance.open)
      if (
        chain.identity === this.#identity(event) &&
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
  #settleTentative(
    c: ClientRecord,
    event: ClientEvent,
    keyDeadlineHere: Deadline | undefined,
  ): void {
    if (c.tentative.length === 0) return;
    c.tentative = c.tentative.filter((t) => {
      const onTime =
        t.deadline.connection === event.connection &&
        (t.identity === this.#identity(event) || t.deadline === keyDeadlineHere) &&
        earlyBy(t.deadline, event) === 0;
      if (!onTime) return true;
      c.early -= 1;
      c.ambiguousEarly += 1;
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
  #judgeArrival(
    c: ClientRecord,
    instance: Instance,
    chain: Chain | undefined,
    event: ClientEvent,
  ): boolean {
    const { instances } = c;
    const toldHere = instances.told(event.connection);
    const byRequest = toldHere?.byRequest;
    const ownTold =
      byRequest === undefined || byRequest.size === 0
        ? undefined
        : byRequest.get(this.#identity(event));
    this.#leads.early = 0;
    this.#leads.otherSocket = undefined;
    this.#leads.otherLead = 0;
    instances.weigh(this.#leads, event, chain?.deadline);
    instances.weigh(this.#leads, event, instance.keyDeadline);
    instances.weigh(this.#leads, event, ownTold);
    instances.weigh(this.#leads, event, toldHere?.keyDeadline);
    this.#settleTentative(c, event, toldHere?.keyDeadline);
    // On time for what its own socket was told for this request: that socket keeps its own
    // schedule, so being early only for another's is a doubt at once.
    let doubted = false;
    if (
      this.#leads.early === 0 &&
      this.#leads.otherSocket !== undefined &&
      ownTold !== undefined &&
      ownTold.answeredSeq < event.arrivalSeq &&
      earlyBy(ownTold, event) === 0
    ) {
      this.#leads.otherSocket = undefined;
      doubted = true;
      c.ambiguousEarly += 1;
    }
    if ((chain !== undefined && chain.retryAfterMs !== null) || instance.keyDeadline !== undefined)
      c.judgedRequests += 1;
    if (this.#leads.early > 0 || this.#leads.otherSocket !== undefined) this.#countEarly(c, event);
    return this.#leads.early === 0 && (this.#leads.otherSocket !== undefined || doubted);
  }

  /** Counts an early request (as `#leads` has it): a violation if refused, tentative if a doubt. */
  #countEarly(c: ClientRecord, event: ClientEvent): void {
    c.early += 1;
    const violation = event.refused;
    if (violation) {
      c.violations += 1;
      c.violationsTowardsBan += 1;
      c.key.mayOwe = true;
    }
    if (this.#leads.early > 0) c.maxEarlyMs = Math.max(c.maxEarlyMs, this.#leads.early);
    else if (this.#leads.otherSocket !== undefined) {
      c.tentative.push({
        deadline: this.#leads.otherSocket,
        identity: this.#identity(event),
        earlyMs: this.#leads.otherLead,
        violation,
      });
      if (c.tentative.length > tentativeKept)
        c.maxEarlyMs = Math.max(c.maxEarlyMs, c.tentative.shift()?.earlyMs ?? 0);
    }
  }

  /** A retry's wait: the client's own (judged for growth) unless Retry-After or a reset asked for it. */
  #noteRetry(c: ClientRecord, chain: Chain, event: ClientEvent, doubtful: boolean): void {
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
      early: this.#leads.early > 0,
    });
    if (c.waits.length > waitsKept) c.waits.shift();
  }

  /** Step 2 of recording a request: what did its answer tell the client? */
  #noteAnswer(
    c: ClientRecord,
    instance: Instance,
    chain: Chain | undefined,
    event: ClientEvent,
  ): void {
    const delay = retryAfterDelay(event.retryAfter, event.answeredReal);
    const deadline =
      delay === undefined
        ? undefined
        : {
            fake: event.answeredAt + delay,
            real: event.answeredReal + delay,
            answeredSeq: event.answeredSeq,
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
    if (event.dropped || failureStatuses.has(event.status)) {
      const name = event.dropped ? 'dropped' : String(event.status);
      c.failures[name] = (c.failures[name] ?? 0) + 1;
      instance.open.push({
        identity: this.#identity(event),
        ownWaits: chain?.ownWaits ?? [],
        failedAt: event.answeredAt,
        failedReal: event.answeredReal,
        failedSeq: event.answeredSeq,
        failedStatus: event.dropped ? 0 : event.status,
        unknownOutcome,
        retryAfterMs: delay ?? null,
        resetInMs: event.resetInMs ?? null,
        deadline,
      });
      if (deadline !== undefined)
        c.instances.tell(event.connection, this.#identity(event), deadline);
      if (instance.open.length > openChainsKept) c.closeChain(instance.open.shift() as Chain);
    } else if (chain !== undefined) {
      c.closeChain(chain);
    }
  }
}
