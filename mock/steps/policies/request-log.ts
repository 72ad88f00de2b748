/**
 * The request log: one record per answered request, for `onExchange` (the `npm start` log, tests).
 * Never the key itself: its public id, and the URL through the fake's one redaction (redaction.ts).
 */

import type { OperationId } from '../../base/contract/types.ts';
import type { Answer } from '../../base/messages/answer.ts';
import { type FakeRequest, pathStart } from '../../base/messages/fake-request.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import type { ExchangeRecord } from '../../pipeline/config/config.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';
import { routeSlot } from '../routes/route.ts';
import { keyIdSlot } from './auth.ts';
import type { ClientIds } from './client-ids.ts';

/** What a control request changed, in words for the log (never a secret). */
export const controlActionSlot = createSlot<string>('what the control request changed');

/** The request log of one fake. */
export interface RequestLog {
  /** The step that logs every answer of a pipeline: the interface's, or the control surface's. */
  step(kind: 'api' | 'control'): Step;
  /** Logs an answer given before any pipeline ran (a request target too long or unparsable, a path the fake does not serve). */
  record(request: FakeRequest, url: URL | undefined, answer: Answer, started: number): void;
}

interface RequestLogOptions {
  readonly onExchange: ((record: ExchangeRecord) => void) | undefined;
  /** What the URLs pass through before they are logged. */
  readonly redaction: Redaction;
  readonly clientIds: ClientIds;
}

/** Creates the request log; without `onExchange` its steps pass straight through. */
export function createRequestLog({
  onExchange,
  redaction,
  clientIds,
}: RequestLogOptions): RequestLog {
  /**
   * Logs one record, its fields in the log's order and an absent one left out: added one by one,
   * where an options object and a spread of an empty object per absent field cost an object each.
   */
  const write = (
    request: FakeRequest,
    shownUrl: string,
    answer: Answer,
    started: number,
    keyId: string,
    clientId: string | undefined,
    operationId: OperationId | undefined,
    control: { readonly action: string | undefined } | undefined,
  ) => {
    if (onExchange === undefined) return;
    const record = { method: request.method, url: shownUrl, status: answer.status, keyId } as {
      -readonly [Field in keyof ExchangeRecord]: ExchangeRecord[Field];
    };
    if (clientId !== undefined) record.clientId = clientId;
    record.operationId = operationId;
    record.durationMs = performance.now() - started;
    if (control !== undefined) record.control = true;
    if (answer.errorCode !== undefined) record.errorCode = answer.errorCode;
    if (answer.injected !== undefined) record.injected = answer.injected;
    if (control?.action !== undefined) record.controlAction = control.action;
    onExchange(record);
  };
  /** Redacted whole, then cut: a cut first could leave part of a secret. */
  const shown = (text: string) => redaction.text(text).slice(0, 200);

  // Promise reactions rather than async steps: no suspended frame per request.
  const apiStep: Step = (context, next) => {
    const started = performance.now();
    return next().then((answer) => {
      write(
        context.request,
        redaction.url(context.url),
        answer,
        started,
        context.get(keyIdSlot) ?? '-',
        clientIds(context),
        context.get(routeSlot)?.route.operationId,
        undefined,
      );
      return answer;
    });
  };
  const controlStep: Step = (context, next) => {
    const started = performance.now();
    return next().then((answer) => {
      // The token travels in a header, but a careless client may put a key in a control path.
      write(
        context.request,
        shown(context.url.pathname),
        answer,
        started,
        '-',
        undefined,
        undefined,
        {
          action: context.get(controlActionSlot),
        },
      );
      return answer;
    });
  };
  const passThrough: Step = (_context, next) => next();

  return {
    step: (kind) =>
      onExchange === undefined ? passThrough : kind === 'api' ? apiStep : controlStep,
    record(request, url, answer, started) {
      if (onExchange === undefined) return;
      const start = pathStart(request.url);
      // An unparsable or over-long target: its first 8 KiB redacted, then its first 200 characters.
      const shownUrl =
        url === undefined ? shown(request.url.slice(start, start + 8400)) : redaction.url(url);
      write(request, shownUrl, answer, started, '-', undefined, undefined, undefined);
    },
  };
}
