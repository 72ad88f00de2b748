/**
 * The client report's policy: it reads every exchange of a request with a valid key, so it sees
 * every answer a key's client got (forced, chaos, ban, rate limit or the operation's own) and the
 * fake's clock and real time when the request arrived and when its answer left.
 */
import type { ControllableClock } from '../../../base/clock/clock.ts';
import { describeClockOffset } from '../../../base/clock/clock-offset.ts';
import { ConfigError } from '../../../base/config-error.ts';
import { stringifyJson } from '../../../base/contract/lossless-json.ts';
import type { Redaction } from '../../../base/messages/redaction.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import type { ControlRoutes } from '../../../pipeline/control-route.ts';
import type { Exchange } from '../../../pipeline/exchange.ts';
import type { Policy } from '../../../pipeline/pipeline.ts';
import { type ClientEvent, type ClientReport, ClientReporter } from './client-report.ts';

/** What the client report is built from. */
interface ClientReportParts {
  readonly clock: ControllableClock;
  /** The one redaction the report passes through where it is written. */
  readonly redaction: Redaction;
}

/** The client report's options, which join createFake's through the step's registration. */
export interface ClientReportOptions {
  readonly clientReport?: {
    /**
     * `one`: every client id is one copy of an app, so all its connections are one instance and
     * a request before a Retry-After any of them was given is early. Default `unknown`: copies
     * are told apart by connection (README, "Two copies under one id"). A client may declare it
     * for itself with `X-Client-Copies: 1`.
     */
    readonly copiesPerId?: 'one' | 'unknown';
  };
}

const copiesChoices = ['one', 'unknown'] as const;
/** Methods RFC 9110 calls idempotent: resending them is safe. */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** The report's event of an exchange with a valid key. */
function eventOf(exchange: Exchange, oneCopy: boolean): ClientEvent {
  const { quota, rateLimit, answeredAtMs } = exchange;
  // Refused by the window: a 429, or the 429 that started a ban (a key banned already is not).
  const banStarted = quota?.verdict === 'banned' && quota.started;
  const refused = quota?.verdict === 'limited' || banStarted;
  // Only a non-idempotent request's body tells a resent create from a new one.
  const bodyHash = idempotentMethods.has(exchange.method)
    ? undefined
    : (exchange.body.hash ?? undefined);
  return {
    keyId: exchange.keyId,
    clientId: exchange.clientId,
    connection: exchange.connection,
    // Arrivals and answers in one sequence: an answer comes after the arrivals before it.
    arrivalSeq: 2 * exchange.arrival,
    answeredSeq: 2 * exchange.arrivalsWhenAnswered + 1,
    oneCopy,
    method: exchange.method,
    path: exchange.path,
    query: exchange.query,
    bodyHash,
    arrivedAt: exchange.atMs,
    answeredAt: answeredAtMs,
    arrivedReal: exchange.realMs,
    answeredReal: exchange.answeredRealMs,
    status: exchange.status,
    errorCode: exchange.errorCode ?? undefined,
    retryAfter: exchange.headers['Retry-After'],
    resetInMs: rateLimit === null ? undefined : Math.max(0, rateLimit.reset * 1000 - answeredAtMs),
    chaos: exchange.injected === 'chaos',
    stubbed: exchange.injected === 'stubbed',
    dropped: exchange.dropped,
    refused,
    keyViolations: exchange.violations ?? 0,
    banStarted,
    // Only a create reads it: the browser door marks a create it may have sent twice.
    possibleCopy: bodyHash !== undefined && exchange.possibleCopy,
  };
}

/** What the control surface can read of the client report (part of `fake.control`). */
export interface ClientReportControl {
  /** The client compliance report: every key's clients, their verdicts per rule, the latest requests. */
  clients(): ClientReport;
}

/** The client report: every exchange of a request with a valid key becomes one of its events. */
export function clientReportStep(
  { clock, redaction }: ClientReportParts,
  options: ClientReportOptions,
): Policy<ClientReportControl> {
  const copies = options.clientReport?.copiesPerId ?? 'unknown';
  if (!copiesChoices.includes(copies))
    throw new ConfigError(
      'clientReport.copiesPerId',
      `must be one of: ${copiesChoices.join(', ')}; got ${JSON.stringify(copies)}`,
    );
  let reporter = new ClientReporter();
  const control: ClientReportControl = {
    clients: () =>
      redaction.json(reporter.report(clock.now(), Date.now(), clock.frozen, redaction.text)),
  };
  return {
    read: (exchange) => {
      if (exchange.kind !== 'api' || exchange.plan === null) return;
      reporter.record(eventOf(exchange, copies === 'one' || exchange.oneCopy));
    },
    reset: () => {
      reporter = new ClientReporter();
    },
    control,
    routes: clientReportRoutes,
  };
}

/** `GET /__control/clients`: the client compliance report. */
const clientReportRoutes: ControlRoutes<ClientReportControl> = {
  'GET clients': async (control) => ({ body: control.clients() }),
};

/** `npm start --client-copies <one|unknown> --client-report <file>`. */
clientReportStep.commandLine = {
  flags: [
    {
      name: 'client-copies',
      value: '<one|unknown>',
      help: 'one: each X-Client-Id is one copy of an app, in the client report (default unknown)',
      option: 'clientReport.copiesPerId',
      reads: 'text',
    },
  ],
  exitFiles: [
    {
      name: 'client-report',
      help: 'on exit, also write the client compliance report there as JSON',
      finish(control) {
        const report = control.clients();
        return {
          summary: formatClientReport(report),
          text: () => `${stringifyJson(report, 2)}\n`,
          done: (path) => `client report written to ${path}`,
        };
      },
    },
  ],
} satisfies PolicyCommandLine<ClientReportControl>;

/**
 * The report in a few lines, for `npm start`'s exit: the clock the waits were read on, one line
 * per client with its verdict (e.g. `demo-free  my-app  FAIL  12 requests, 3 failures`), then one
 * indented line per rule that failed or was inconclusive.
 */
export function formatClientReport(report: ClientReport): string {
  if (report.clients.length === 0) return 'Client report: no client sent a request with a key.';
  const lines = ['Client report (Limits, rule 2: Retry-After and exponential backoff):'];
  if (report.clock.mode !== 'real')
    lines.push(
      `  (fake clock ${report.clock.mode}, ${describeClockOffset(report.clock.offsetMs)}: each wait is read on both clocks, the longer counts)`,
    );
  for (const client of report.clients) {
    const failures = Object.values(client.failures).reduce((a, b) => a + b, 0);
    lines.push(
      `  ${client.keyId}  ${client.clientId}  ${client.verdict.toUpperCase()}  ${client.requests} requests, ${failures} failures answered`,
    );
    for (const problem of client.problems) lines.push(`    - ${problem}`);
    for (const doubt of client.doubts) lines.push(`    ? ${doubt}`);
  }
  return lines.join('\n');
}
