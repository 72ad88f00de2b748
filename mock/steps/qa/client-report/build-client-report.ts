/**
 * Builds the client compliance report from the records client-report.ts keeps: each client's
 * numbers judged by the interface's rules for clients (client-rules.ts), and the latest requests
 * as the live page shows them. Reads the records only; open chains are judged as they stand.
 */
import { judgeChain } from './backoff-judgement.ts';
import { type ClientRecord, countJudgement } from './client-record.ts';
import {
  type ClientEvent,
  type ClientReport,
  type ClientSummary,
  complianceTolerance,
  type RecentRequest,
} from './client-report-shapes.ts';
import {
  backoffRule,
  banRule,
  overall,
  type RuleNumbers,
  resentCreatesRule,
  retryAfterRule,
  ruleLabels,
} from './client-rules.ts';
import type { LatestRing } from './latest-ring.ts';

/** How a report shows a request's path and query: redacted. */
export type ShowUrl = (target: string) => string;

/** One request as a report shows it: ISO times, a redacted path. */
function show(event: ClientEvent, clientId: string, showUrl: ShowUrl): RecentRequest {
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

/** One client as a report shows it: its numbers, each rule's verdict and its latest requests. */
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

/** What a report is built from: every client's record and the latest requests over all clients. */
export interface ReportSources {
  readonly clients: Iterable<ClientRecord>;
  readonly recentEvents: LatestRing<ClientEvent>;
  /** The client each of `recentEvents` was counted for, side by side. */
  readonly recentClients: LatestRing<string>;
}

/** The report as of `now` (the fake's clock) and `realNow`; `showUrl` redacts a request's URL. */
export function buildClientReport(
  sources: ReportSources,
  now: number,
  realNow: number,
  frozen: boolean,
  showUrl: ShowUrl,
): ClientReport {
  const offsetMs = now - realNow;
  const recentClientIds = sources.recentClients.newestFirst();
  return {
    now: new Date(now).toISOString(),
    realNow: new Date(realNow).toISOString(),
    clock: {
      mode: frozen ? 'frozen' : Math.abs(offsetMs) > 1000 ? 'shifted' : 'real',
      offsetMs,
    },
    tolerance: complianceTolerance,
    clients: [...sources.clients].map((c) => summarise(c, showUrl)),
    recent: sources.recentEvents
      .newestFirst()
      .map((event, index) => show(event, recentClientIds[index] as string, showUrl)),
  };
}
