/**
 * What the client report keeps of one client of a key (its counts, its copies, its latest
 * requests, the creates it resent), which client-report.ts fills as requests are answered, and
 * how a report shows it: its numbers judged by the interface's rules for clients (client-rules.ts).
 */
import { type ChainJudgement, judgeChain } from './backoff-judgement.ts';
import { type Chain, ClientInstances, type Deadline, type Instance } from './client-instances.ts';
import type {
  ClientEvent,
  ClientSummary,
  RecentRequest,
  RetryWait,
} from './client-report-shapes.ts';
import {
  backoffRule,
  banRule,
  overall,
  RuleNumbers,
  type RuleVerdict,
  resentCreatesRule,
  retryAfterRule,
  ruleLabels,
} from './client-rules.ts';
import { LatestRing } from './latest-ring.ts';

/** The most recent requests kept per client. */
const clientRecentLength = 10;
/** Requests (method and path) named in the resent-create observation. */
const resentNamed = 5;

/** How a report shows a request's path and query: redacted. */
export type ShowUrl = (target: string) => string;

/** A key's clients; `mayOwe` is false while none of them has early requests towards a ban. */
export interface KeyClients {
  readonly records: ClientRecord[];
  mayOwe: boolean;
}

/** A request early only against a Retry-After given on another socket. */
interface Tentative {
  readonly deadline: Deadline;
  readonly identity: string;
  readonly earlyMs: number;
  readonly violation: boolean;
}

/** Counts a chain's judgement in a client's tallies (or in a report's copy of them). */
function countJudgement(
  c: Pick<ClientRecord, 'chains' | 'firstFailure' | 'firstDoubt' | 'tooFew'>,
  judgement: ChainJudgement,
): void {
  if (judgement.verdict === 'too-few') {
    c.tooFew ??= judgement.why;
    return;
  }
  c.chains[judgement.verdict] += 1;
  if (judgement.verdict === 'fail') c.firstFailure ??= judgement.why;
  if (judgement.verdict === 'inconclusive') c.firstDoubt ??= judgement.why;
}

/**
 * A create sent again while an earlier one of the same body was unanswered: the client timed out.
 * The path and query decide, whichever host it was sent to (fake.fetch answers every host it
 * allows).
 */
function resentBeforeAnswer({ sent }: Instance, event: ClientEvent): boolean {
  const { method, path, query, bodyHash, arrivalSeq, answeredSeq } = event;
  const target = path + query;
  let overlapping = false;
  for (let index = 0; index < sent.size && !overlapping; index++) {
    const earlier = sent.at(index);
    // Either arrived while the other was unanswered; told apart field by field, not by identity.
    overlapping =
      ((earlier.arrivalSeq < arrivalSeq && earlier.answeredSeq > arrivalSeq) ||
        (arrivalSeq < earlier.arrivalSeq && answeredSeq > earlier.arrivalSeq)) &&
      earlier.method === method &&
      earlier.bodyHash === bodyHash &&
      earlier.target === target;
  }
  sent.push({ method, target, bodyHash, arrivalSeq, answeredSeq });
  return overlapping;
}

/** One request as a report shows it: ISO times, a redacted path. */
export function shownRequest(
  event: ClientEvent,
  clientId: string,
  showUrl: ShowUrl,
): RecentRequest {
  return {
    at: new Date(event.arrivedAt).toISOString(),
    realAt: new Date(event.arrivedReal).toISOString(),
    keyId: event.keyId,
    clientId,
    connection: event.connection,
    method: event.method,
    // Redacted whole, then cut: a cut first could leave part of a secret.
    path: showUrl(event.path + event.query).slice(0, 200),
    status: event.dropped ? 0 : event.status,
    errorCode: event.errorCode ?? null,
    retryAfter: event.retryAfter ?? null,
    chaos: event.chaos,
    stubbed: event.stubbed,
    dropped: event.dropped,
    latencyMs: event.answeredAt - event.arrivedAt,
  };
}

/** What the report keeps of one client of a key: the numbers its rules read, its copies, its latest requests. */
export class ClientRecord extends RuleNumbers {
  readonly keyId: string;
  readonly clientId: string;
  readonly key: KeyClients;
  readonly instances = new ClientInstances();
  readonly recent = new LatestRing<ClientEvent>(clientRecentLength);
  requests = 0;
  readonly failures: Record<string, number> = {};
  chaosAnswers = 0;
  stubbedAnswers = 0;
  readonly waits: RetryWait[] = [];
  violationsTowardsBan = 0;
  /** Requests early only against a Retry-After given on another socket, not settled yet. */
  tentative: Tentative[] = [];
  first: { fake: number; real: number } | undefined;
  /** When the latest answer left, on the fake's clock and real time (numbers: no object per request). */
  lastFake = 0;
  lastReal = 0;

  constructor(keyId: string, clientId: string, key: KeyClients) {
    super();
    this.keyId = keyId;
    this.clientId = clientId;
    this.key = key;
  }

  /** A create: resent after a failure whose outcome the client could not know, or before its answer. */
  noteCreate(instance: Instance, chain: Chain | undefined, event: ClientEvent): void {
    if (event.possibleCopy === true) this.#noteResent('redispatch', event);
    else if (chain?.unknownOutcome === true)
      this.#noteResent(chain.failedStatus === 0 ? 'dropped' : String(chain.failedStatus), event);
    else if (resentBeforeAnswer(instance, event)) this.#noteResent('timeout', event);
  }

  /** Counts a resent create by its cause, naming its request once. */
  #noteResent(cause: string, event: ClientEvent): void {
    this.resent[cause] = (this.resent[cause] ?? 0) + 1;
    const named = `${event.method} ${event.path}`;
    if (!this.resentRequests.includes(named) && this.resentRequests.length < resentNamed)
      this.resentRequests.push(named);
  }

  /** Closes a chain: its own waits are judged. */
  closeChain(chain: Chain): void {
    if (chain.ownWaits.length > 0) countJudgement(this, judgeChain(chain.ownWaits));
  }

  /** This client as a report shows it: its numbers, each rule's verdict and its latest requests. */
  summary(showUrl: ShowUrl): ClientSummary {
    const numbers = {
      ...this,
      chains: { ...this.chains },
      maxEarlyMs: Math.max(this.maxEarlyMs, ...this.tentative.map((t) => t.earlyMs)),
    };
    // Open chains are judged as they stand, without closing them.
    for (const instance of this.instances.all())
      for (const chain of instance.open)
        if (chain.ownWaits.length > 0) countJudgement(numbers, judgeChain(chain.ownWaits));
    const rules = {
      retryAfter: retryAfterRule(numbers),
      backoff: backoffRule(numbers, [...this.waits]),
      ban: banRule(numbers),
      resentCreates: resentCreatesRule(numbers),
    };
    const named = (Object.keys(ruleLabels) as (keyof typeof ruleLabels)[]).map(
      (rule) => [ruleLabels[rule], rules[rule]] as const,
    );
    const quoted = (verdict: RuleVerdict) =>
      named.filter(([, r]) => r.verdict === verdict).map(([n, r]) => `${n}: ${r.reason}`);
    const time = (t: { fake: number; real: number }) => ({
      fake: new Date(t.fake).toISOString(),
      real: new Date(t.real).toISOString(),
    });
    const last = { fake: this.lastFake, real: this.lastReal };
    return {
      keyId: this.keyId,
      clientId: this.clientId,
      requests: this.requests,
      connections: this.instances.connections.size,
      oneCopy: this.instances.oneCopy,
      failures: { ...this.failures },
      chaosAnswers: this.chaosAnswers,
      stubbedAnswers: this.stubbedAnswers,
      verdict: overall(named.map(([, r]) => r.verdict)),
      rules,
      problems: quoted('fail'),
      doubts: quoted('inconclusive'),
      firstSeen: time(this.first ?? last),
      lastSeen: time(last),
      recent: this.recent.newestFirst().map((event) => shownRequest(event, this.clientId, showUrl)),
    };
  }
}
