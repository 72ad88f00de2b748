/**
 * What the fake's behaviour core answers with: a status, headers and JSON text, no streams. Each
 * door turns it into what its transport needs (a Fetch `Response`, or bytes on a socket), so the
 * core never pays for a Response it does not need.
 */
import { stringifyJson } from '../contract/lossless-json.ts';
import { type ErrorCode, errorBody } from './errors.ts';

/** One answer of the fake. */
export interface Answer {
  readonly status: number;
  /** Header names as written; the doors send them as given. */
  readonly headers: Record<string, string>;
  /** JSON text, or `undefined` for no body. */
  readonly body: string | undefined;
  /** The error code of an Error answer, for the request log. */
  readonly errorCode?: ErrorCode;
}

/** Extra headers of an answer, by name (every caller passes a literal record). */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** A JSON answer whose int64 values keep every digit (see lossless-json.ts). */
export function jsonAnswer(status: number, body: unknown, headers?: AnswerHeaders): Answer {
  return {
    status,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: stringifyJson(body),
  };
}

/** The Error answer for a code, with an optional more specific message and extra headers. */
export function errorAnswer(code: ErrorCode, message?: string, headers?: AnswerHeaders): Answer {
  const body = errorBody(code, message);
  return { ...jsonAnswer(body.status, body, headers), errorCode: code };
}
