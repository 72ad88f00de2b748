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
  /**
   * Who put this answer in place of the fake's own, for the client report, coverage, the Pact
   * recorder and the request journal; absent on the fake's own answers.
   */
  readonly injected?: InjectedBy;
  /**
   * The door drops the connection instead of sending this answer: the HTTP door closes the
   * socket, `fake.fetch` and the msw handlers fail the fetch as a network error.
   */
  readonly drop?: boolean;
  /** The interface rules a stubbed answer breaks (a stub may break them: that is its use). */
  readonly breaks?: readonly string[];
}

/**
 * Who injected an answer: QA's forced status (`forced`), a whole stubbed answer (`stubbed`),
 * seeded chaos (`chaos`), or the request's own `Prefer: code=` header (`prefer`).
 */
type InjectedBy = 'forced' | 'stubbed' | 'chaos' | 'prefer';

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

/**
 * 200 JSON answers of frozen values, each serialised once per value: a value answered again (a
 * stored pet, a page the store hands out again) is not serialised again. Entries go with their
 * values.
 */
export function createFrozenJsonAnswers(): (value: object) => Answer {
  const texts = new WeakMap<object, string>();
  return (value) => {
    let body = texts.get(value);
    if (body === undefined) {
      body = stringifyJson(value);
      texts.set(value, body);
    }
    return { status: 200, headers: { 'Content-Type': 'application/json' }, body };
  };
}

/** The Error answer for a code, with an optional more specific message and extra headers. */
export function errorAnswer(code: ErrorCode, message?: string, headers?: AnswerHeaders): Answer {
  const body = errorBody(code, message);
  return { ...jsonAnswer(body.status, body, headers), errorCode: code };
}
