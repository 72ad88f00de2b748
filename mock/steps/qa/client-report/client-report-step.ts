/**
 * The pipeline step that feeds the client report: right after authentication, so it sees every
 * answer a key's client gets (forced, chaos, ban, rate limit or the operation's own) and the
 * fake's clock when the request arrived and when its answer left.
 */
import type { ControllableClock } from '../../../base/clock/clock.ts';
import { ConfigError } from '../../../base/config-error.ts';
import { stringifyJson } from '../../../base/contract/lossless-json.ts';
import type { Answer } from '../../../base/messages/answer.ts';
import {
  type BodyBytes,
  type FakeRequest,
  possibleCopyHeader,
} from '../../../base/messages/fake-request.ts';
import { fnv1a } from '../../../base/messages/fnv1a.ts';
import type { Redaction } from '../../../base/messages/redaction.ts';
import type { KeyUsage } from '../../../base/quota/rate-limit.ts';
import type { ResolvedConfig } from '../../../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import type { ControlRoutes } from '../../../pipeline/control-route.ts';
import type { Context, Policy } from '../../../pipeline/pipeline.ts';
import { callerSlot } from '../../policies/auth.ts';
import type { ClientIds } from '../../policies/client-ids.ts';
import { quotaSlot } from '../../policies/quota-step.ts';
import { rateLimitSlot } from '../../policies/rate-limit-headers-step.ts';
import {
  type ClientEvent,
  type ClientReport,
  ClientReporter,
  isNonIdempotent,
} from './client-report.ts';
import { formatClientReport } from './client-report-summary.ts';

/** What the client report's step is built from. */
interface ClientReportParts {
  readonly clock: ControllableClock;
  readonly clientIds: ClientIds;
  /** The one redaction the report passes through where it is written. */
  readonly redaction: Redaction;
  readonly config: Pick<ResolvedConfig, 'maxBodyBytes'>;
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

/** Where the door knows no connection (fake.fetch, msw in Node): one process, one connection. */
const inProcess = 'in-process';

/** FNV-1a over a body's bytes: the same create sent again has the same hash. */
function bodyHash(body: BodyBytes): number | 'too-large' {
  return body === 'too-large' ? 'too-large' : fnv1a(body);
}

/** What the step learned of a request when it arrived, for the report's event once it is answered. */
interface Arrival {
  readonly context: Context;
  readonly usage: KeyUsage;
  readonly keyId: string;
  readonly clientId: string;
  readonly connection: string;
  readonly arrivalSeq: number;
  readonly arrivedReal: number;
}

/**
 * The report's event of an answered request: the answer's facts, read off it and the context
 * (whose slots the pipeline's inner steps filled before the answer came back), and when it left
 * on the fake's clock and in real time.
 */
function eventOf(
  arrival: Arrival,
  answer: Answer,
  answeredAt: number,
  answeredReal: number,
  bodyHash: number | 'too-large' | undefined,
): ClientEvent {
  const { context, usage } = arrival;
  const { request } = context;
  const decision = context.get(quotaSlot);
  // Refused by the window: a 429, or the 429 that started a ban (a key banned already is not).
  const banStarted = decision?.verdict === 'banned' && decision.started;
  const refused = decision?.verdict === 'limited' || banStarted;
  const reset = context.get(rateLimitSlot)?.reset;
  return {
    keyId: arrival.keyId,
    clientId: arrival.clientId,
    connection: arrival.connection,
    arrivalSeq: arrival.arrivalSeq,
    method: request.method,
    url: context.url,
    bodyHash,
    arrivedAt: context.now,
    answeredAt,
    arrivedReal: arrival.arrivedReal,
    answeredReal,
    status: answer.status,
    errorCode: answer.errorCode,
    retryAfter: answer.headers['Retry-After'],
    resetInMs: reset === undefined ? undefined : Math.max(0, reset * 1000 - answeredAt),
    chaos: answer.injected === 'chaos',
    stubbed: answer.injected === 'stubbed',
    dropped: answer.drop === true,
    refused,
    keyViolations: usage.violations,
    banStarted,
    // Only a create reads it: the browser door marks a create it may have sent twice.
    possibleCopy: bodyHash !== undefined && request.header(possibleCopyHeader) !== null,
  };
}

/** Whether a request's client is one copy of its app on every connection (the setting, or its header). */
function declaresOneCopy(copies: 'one' | 'unknown', request: FakeRequest): boolean {
  if (copies === 'one') return true;
  const declared = request.header('x-client-copies')?.trim().toLowerCase();
  return declared === '1' || declared === 'one';
}

/** What the control surface can read of the client report (part of `fake.control`). */
export interface ClientReportControl {
  /** The client compliance report: every key's clients, their verdicts per rule, the latest requests. */
  clients(): ClientReport;
}

/**
 * The step: passes the request on, then records its answer in the client report, with real time
 * beside the fake's clock and what the ban policy made of it (read off the key's usage).
 */
export function clientReportStep(
  { clock, clientIds, redaction, config }: ClientReportParts,
  options: ClientReportOptions,
): Policy<ClientReportControl> {
  const copies = options.clientReport?.copiesPerId ?? 'unknown';
  if (!copiesChoices.includes(copies))
    throw new ConfigError(
      'clientReport.copiesPerId',
      `must be one of: ${copiesChoices.join(', ')}; got ${JSON.stringify(copies)}`,
    );
  const reporter = new ClientReporter();
  /** Records an answered request, with its body's hash if it is a create (read now, or awaited). */
  const recordAnswer = (arrival: Arrival, answer: Answer): Answer | Promise<Answer> => {
    const answeredAt = clock.now();
    const answeredReal = Date.now();
    const { request } = arrival.context;
    // Only a non-idempotent request's body is read (the route read it already, or it is small).
    if (!isNonIdempotent(request.method)) {
      reporter.record(eventOf(arrival, answer, answeredAt, answeredReal, undefined));
      return answer;
    }
    const body = request.body(config.maxBodyBytes);
    if (!(body instanceof Promise)) {
      reporter.record(eventOf(arrival, answer, answeredAt, answeredReal, bodyHash(body)));
      return answer;
    }
    return body.then((bytes) => {
      reporter.record(eventOf(arrival, answer, answeredAt, answeredReal, bodyHash(bytes)));
      return answer;
    });
  };
  const step: Policy['step'] = (context, next) => {
    const { request } = context;
    const arrivedReal = Date.now();
    const { usage, key } = context.need(callerSlot);
    const clientId = clientIds(context);
    const connection = request.connection ?? inProcess;
    const arrival: Arrival = {
      context,
      usage,
      keyId: key.id,
      clientId,
      connection,
      arrivalSeq: reporter.arrive(key.id, clientId, connection, declaresOneCopy(copies, request)),
      arrivedReal,
    };
    // A promise reaction rather than an async step: no suspended frame per request.
    return next().then((answer) => recordAnswer(arrival, answer));
  };
  const control: ClientReportControl = {
    clients: () =>
      redaction.json(reporter.report(clock.now(), Date.now(), clock.frozen, redaction.url)),
  };
  return { step, reset: () => reporter.clear(), control, routes: clientReportRoutes };
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
