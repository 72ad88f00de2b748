/**
 * What the client report keeps: per client (its counts, its copies, its latest requests), per
 * retry chain and per create it follows. client-report.ts fills these records as requests are
 * answered; build-client-report.ts reads them when a report is asked for.
 */
import type { ChainJudgement } from './backoff-judgement.ts';
import { type ClientInstances, createClientInstances, type Deadline } from './client-instances.ts';
import type { ClientEvent, RetryWait } from './client-report-shapes.ts';
import { LatestRing } from './latest-ring.ts';

/** The most recent requests kept per client. */
const clientRecentLength = 10;
/** Non-idempotent requests kept per instance to see one resent before its answer. */
const sentKept = 8;

/** One request retried within one instance: its latest failure, and the waits of its retries. */
export interface Chain {
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
 * path and query, when it arrived and when its answer left (in the report's sequence).
 */
export interface SentCreate {
  readonly method: string;
  readonly target: string;
  readonly bodyHash: ClientEvent['bodyHash'];
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
}

/** A key's clients; `mayOwe` is false while none of them has early requests towards a ban. */
export interface KeyClients {
  readonly records: ClientRecord[];
  mayOwe: boolean;
}

export interface ClientRecord {
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
export interface Tentative {
  readonly deadline: Deadline;
  readonly identity: string;
  readonly earlyMs: number;
  readonly violation: boolean;
}

/**
 * What a retry repeats: the method, path and query, and for a create its body's hash. Built only
 * when a chain, a Retry-After told on a connection or a settling doubt asks for it by text.
 */
export function identityOf(event: ClientEvent): string {
  const { method, path, query, bodyHash } = event;
  const target = `${method} ${path}${query}`;
  return bodyHash === undefined ? target : `${target}#${bodyHash}`;
}

/** Counts a chain's judgement in a client's tallies (or in a probe of them). */
export function countJudgement(
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

/** An empty record of a client of a key. */
export function newClientRecord(keyId: string, clientId: string, key: KeyClients): ClientRecord {
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
