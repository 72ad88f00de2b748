/**
 * The one place a request and its answer become an exchange (pipeline/exchange.ts): the
 * outermost step of the interface's pipeline and of its preflight's, so it sees every answer
 * with the headers every answer carries, and `record` for the answers the core and the doors
 * give before any pipeline. It reads the request body once, after the answer (the route read
 * it already, or it is small), and hands the exchange to every recorder in turn: msw observes a
 * request outside its handler chain the same way (its request events).
 */
import type { ControllableClock } from '../../base/clock/clock.ts';
import { parseJson } from '../../base/contract/lossless-json.ts';
import type { Answer } from '../../base/messages/answer.ts';
import {
  type BodyBytes,
  type FakeRequest,
  pathStart,
  possibleCopyHeader,
} from '../../base/messages/fake-request.ts';
import { fnv1a } from '../../base/messages/fnv1a.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import type {
  Exchange,
  ExchangeBody,
  ExchangeKind,
  ExchangeReader,
} from '../../pipeline/exchange.ts';
import type { Context, Step } from '../../pipeline/pipeline.ts';
import { callerSlot, keyIdSlot } from '../policies/auth.ts';
import { type ClientIds, printableClientId } from '../policies/client-ids.ts';
import { quotaSlot } from '../policies/quota-step.ts';
import { rateLimitSlot } from '../policies/rate-limit-headers-step.ts';
import { requestJsonSlot } from '../routes/request-body.ts';
import { routeSlot } from '../routes/route.ts';
import { createBodyKeeper, detached, type KeptBody, noBody } from './kept-body.ts';

/** What the exchanges are made with. */
interface ExchangeParts {
  readonly clock: ControllableClock;
  readonly clientIds: ClientIds;
  /** What a long body's kept start is redacted with before it is cut. */
  readonly redaction: Redaction;
  readonly config: { readonly maxBodyBytes: number };
}

/** The exchanges of one fake. */
export interface Exchanges {
  /** The outermost step of the interface's pipeline (`api`) or of its preflight's. */
  step(kind: 'api' | 'preflight'): Step;
  /**
   * Records an answer given before any pipeline ran, with the body a door read (or refused
   * unread) before it refused the request. `started` is `performance.now()` at its arrival.
   */
  record(
    request: FakeRequest,
    url: URL | undefined,
    answer: Answer,
    started: number,
    body?: BodyBytes,
  ): void;
  /** How many requests have arrived so far (the journal numbers its entries from a count). */
  arrivals(): number;
}

/** Where the door knows no connection (fake.fetch, msw in Node): one process. */
const inProcess = 'in-process';

/** Whether a method's request may carry a body an exchange keeps. */
function mayHaveBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/** What an Authorization header is, never its value. */
function authorizationOf(request: FakeRequest): Exchange['authorization'] {
  const header = request.header('authorization');
  return header === null ? 'none' : /^bearer\s/i.test(header) ? 'bearer' : 'other';
}

/** Whether a request's client declares itself one copy of its app (`X-Client-Copies: 1`). */
function declaresOneCopy(request: FakeRequest): boolean {
  const declared = request.header('x-client-copies')?.trim().toLowerCase();
  return declared === '1' || declared === 'one';
}

/** The JSON value of a body no route parsed, or `null`. */
function jsonOf(bytes: BodyBytes): ExchangeBody['json'] {
  if (bytes === 'too-large' || bytes.byteLength === 0) return null;
  try {
    return { value: parseJson(utf8.decode(bytes)) };
  } catch {
    return null;
  }
}

const utf8 = new TextDecoder();

/** The moment an answer left, read once for every field that needs it. */
interface Answered {
  readonly arrivals: number;
  readonly atMs: number;
  readonly realMs: number;
  readonly durationMs: number;
}

/** Creates the exchanges of one fake, handed to `readers` in order. */
export function createExchanges(
  { clock, clientIds, redaction, config }: ExchangeParts,
  readers: readonly ExchangeReader[],
): Exchanges {
  const keep = createBodyKeeper(redaction);
  let arrivals = 0;
  /**
   * The last URL's text and its path and query: a client sends the same URL again and again, and
   * url.href is read without a copy where pathname and search each slice a new string.
   */
  const lastUrl = { href: '', path: '', query: '' };

  const answeredNow = (started: number): Answered => ({
    arrivals,
    atMs: clock.now(),
    realMs: Date.now(),
    durationMs: performance.now() - started,
  });

  const emit = (exchange: Exchange) => {
    for (const read of readers) read(exchange);
  };

  /**
   * The exchange of a request a pipeline answered, once its body (if any) is read: one object
   * literal of one shape, no spreads, so a request costs few allocations here.
   */
  const routed = (
    kind: ExchangeKind,
    context: Context,
    arrival: number,
    realMs: number,
    answered: Answered,
    answer: Answer,
    bytes: BodyBytes | undefined,
  ): Answer => {
    const { request, url } = context;
    const href = url.href;
    if (href !== lastUrl.href) {
      lastUrl.path = url.pathname;
      lastUrl.query = url.search;
      lastUrl.href = href;
    }
    const caller = context.get(callerSlot);
    const route = context.get(routeSlot);
    const kept: KeptBody = bytes === undefined ? noBody : keep(bytes);
    // The route's parse when it read the body; a body it did not read is parsed only for a known
    // key: a request without one keeps no JSON (any web page can send it).
    const parsed = context.get(requestJsonSlot);
    const json = parsed ?? (bytes === undefined || caller === undefined ? null : jsonOf(bytes));
    emit({
      kind,
      arrival,
      arrivalsWhenAnswered: answered.arrivals,
      atMs: context.now,
      realMs,
      answeredAtMs: answered.atMs,
      answeredRealMs: answered.realMs,
      durationMs: answered.durationMs,
      method: request.method,
      path: lastUrl.path,
      query: lastUrl.query,
      operationId: route?.route.operationId ?? null,
      params: route?.params ?? null,
      keyId: context.get(keyIdSlot) ?? '-',
      plan: caller?.key.plan ?? null,
      authorization: authorizationOf(request),
      contentType: request.header('content-type'),
      clientId: clientIds(context),
      connection: request.connection ?? inProcess,
      oneCopy: declaresOneCopy(request),
      // Only a create may be a copy: the header is not looked for on other requests.
      possibleCopy: bytes !== undefined && request.header(possibleCopyHeader) !== null,
      body: {
        kept: kept.kept,
        bytes: kept.bytes,
        truncated: kept.truncated,
        hash: bytes === undefined ? null : bytes === 'too-large' ? 'too-large' : fnv1a(bytes),
        json,
      },
      status: answer.status,
      headers: answer.headers,
      answerBody: answer.body,
      errorCode: answer.errorCode ?? null,
      injected: answer.injected ?? null,
      dropped: answer.drop === true,
      breaks: answer.breaks ?? [],
      quota: context.get(quotaSlot) ?? null,
      rateLimit: context.get(rateLimitSlot) ?? null,
      // The decision's count where it was made (a shared ledger's record was read before it).
      violations: context.get(quotaSlot)?.violations ?? caller?.usage?.violations ?? null,
    });
    return answer;
  };

  // A promise reaction rather than an async step: no suspended frame per request.
  const step =
    (kind: 'api' | 'preflight'): Step =>
    (context, next) => {
      const started = performance.now();
      const realMs = Date.now();
      const arrival = ++arrivals;
      return next().then((answer) => {
        const answered = answeredNow(started);
        const { request } = context;
        if (!mayHaveBody(request.method))
          return routed(kind, context, arrival, realMs, answered, answer, undefined);
        const bytes = request.body(config.maxBodyBytes);
        return bytes instanceof Promise
          ? bytes.then((read) => routed(kind, context, arrival, realMs, answered, answer, read))
          : routed(kind, context, arrival, realMs, answered, answer, bytes);
      });
    };
  const steps = { api: step('api'), preflight: step('preflight') };

  return {
    step: (kind) => steps[kind],
    arrivals: () => arrivals,
    record(request, url, answer, started, body) {
      const arrival = ++arrivals;
      const answered = answeredNow(started);
      const start = pathStart(request.url);
      // An unparsable or over-long target is kept as its first 8 KiB, in memory of its own.
      const target = detached(request.url.slice(start, start + 8192));
      const queryAt = target.indexOf('?');
      const [path, query] =
        url !== undefined
          ? [url.pathname, url.search]
          : queryAt === -1
            ? [target, '']
            : [target.slice(0, queryAt), target.slice(queryAt)];
      const kept = body === undefined ? noBody : keep(body);
      emit({
        kind: 'early',
        arrival,
        arrivalsWhenAnswered: answered.arrivals,
        atMs: answered.atMs,
        realMs: answered.realMs,
        answeredAtMs: answered.atMs,
        answeredRealMs: answered.realMs,
        durationMs: answered.durationMs,
        method: request.method,
        path,
        query,
        operationId: null,
        params: null,
        keyId: '-',
        plan: null,
        authorization: authorizationOf(request),
        contentType: request.header('content-type'),
        // No context to work the id out once: the header as is, redacted where it is written.
        clientId: detached(printableClientId(request)),
        connection: request.connection ?? inProcess,
        oneCopy: declaresOneCopy(request),
        possibleCopy: false,
        body: { ...kept, hash: null, json: null },
        status: answer.status,
        headers: answer.headers,
        answerBody: answer.body,
        errorCode: answer.errorCode ?? null,
        injected: answer.injected ?? null,
        dropped: answer.drop === true,
        breaks: answer.breaks ?? [],
        quota: null,
        rateLimit: null,
        violations: null,
      });
    },
  };
}
