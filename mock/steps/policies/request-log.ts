/**
 * The request log: one record per answered request, for `onExchange` (the `npm start` log, tests),
 * read off each exchange, and the control surface's own. Never the key itself: its public id,
 * and the URL through the fake's one redaction (redaction.ts).
 */

import type { Redaction } from '../../base/messages/redaction.ts';
import type { ExchangeRecord } from '../../pipeline/config/config.ts';
import type { ExchangeReader } from '../../pipeline/exchange.ts';
import { createSlot, type Step } from '../../pipeline/pipeline.ts';

/** What a control request changed, in words for the log (never a secret). */
export const controlActionSlot = createSlot<string>('what the control request changed');

/** The request log of one fake. */
export interface RequestLog {
  /** The step that logs every answer of the control surface. */
  readonly controlStep: Step;
  /** Logs every exchange: the interface's, its preflight's, and the answers given before any pipeline. */
  readonly read: ExchangeReader;
}

interface RequestLogOptions {
  readonly onExchange: ((record: ExchangeRecord) => void) | undefined;
  /** What the URLs pass through before they are logged. */
  readonly redaction: Redaction;
}

/** Creates the request log; without `onExchange` it logs nothing and its step passes straight through. */
export function createRequestLog({ onExchange, redaction }: RequestLogOptions): RequestLog {
  /** Redacted whole, then cut: a cut first could leave part of a secret. */
  const shown = (text: string) => redaction.text(text).slice(0, 200);

  /**
   * Logs one record, its fields in the log's order and an absent one left out: added one by one,
   * where an options object and a spread of an empty object per absent field cost an object each.
   */
  const read: ExchangeReader = (exchange) => {
    if (onExchange === undefined) return;
    const target = exchange.path + exchange.query;
    const record = {
      method: exchange.method,
      // An early refusal's target may be unparsable or over-long: its first 200 characters.
      url: exchange.kind === 'early' ? shown(target) : redaction.text(target),
      status: exchange.status,
      keyId: exchange.keyId,
    } as { -readonly [Field in keyof ExchangeRecord]: ExchangeRecord[Field] };
    if (exchange.kind !== 'early') record.clientId = exchange.clientId;
    record.operationId = exchange.operationId ?? undefined;
    record.durationMs = exchange.durationMs;
    if (exchange.errorCode !== null) record.errorCode = exchange.errorCode;
    if (exchange.injected !== null) record.injected = exchange.injected;
    onExchange(record);
  };

  // A promise reaction rather than an async step: no suspended frame per request.
  const controlStep: Step = (context, next) => {
    const started = performance.now();
    return next().then((answer) => {
      if (onExchange === undefined) return answer;
      // The token travels in a header, but a careless client may put a key in a control path.
      const record = {
        method: context.request.method,
        url: shown(context.url.pathname),
        status: answer.status,
        keyId: '-',
      } as { -readonly [Field in keyof ExchangeRecord]: ExchangeRecord[Field] };
      record.operationId = undefined;
      record.durationMs = performance.now() - started;
      record.control = true;
      if (answer.errorCode !== undefined) record.errorCode = answer.errorCode;
      if (answer.injected !== undefined) record.injected = answer.injected;
      const action = context.get(controlActionSlot);
      if (action !== undefined) record.controlAction = action;
      onExchange(record);
      return answer;
    });
  };
  const passThrough: Step = (_context, next) => next();

  return { controlStep: onExchange === undefined ? passThrough : controlStep, read };
}
