/**
 * Turns one request the proxy forwarded, and its answer, into an `Exchange` the observers can
 * judge: the same record the active harness keeps, with the credentials left out (a bearer key
 * becomes `auth: 'key'`, shown as `$PETSTORE_API_KEY`; any other Authorization is withheld).
 */
import { authorizationForm } from '../checks/judges/seen-request.ts';
import { operationOf } from '../contract/interface-facts.ts';
import { parseExact } from '../http/exact-json.ts';
import { type Exchange, previewOf, type RequestSpec } from '../http/exchange.ts';

/** What the proxy saw of one exchange. */
export interface SeenExchange {
  readonly method: string;
  /** The path and query as the client sent them, e.g. `/v1/pets?limit=5`. */
  readonly pathAndQuery: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** The request body, or undefined when there was none or it passed the capture cap. */
  readonly requestBody: string | undefined;
  readonly status: number;
  readonly headers: Headers;
  /** The answer's body, or undefined when it passed the capture cap. */
  readonly responseBody: string | undefined;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly sentAtEpochMs: number;
}

function authOf(authorization: string | undefined): RequestSpec['auth'] {
  if (authorization === undefined || authorization === '') return 'none';
  if (/^Bearer [^\s]+$/.test(authorization)) return 'key';
  // Withheld, but its form kept: the auth judges tell a bearer token spelt otherwise (`bearer`,
  // two spaces: RFC 9110 lets a server read it) from a malformed header, which must get 401.
  if (authorizationForm({ header: authorization }) === 'bearer')
    return { header: 'Bearer <withheld>' };
  return { header: '<withheld: an Authorization header that is not "Bearer <key>">' };
}

function parse(text: string): { json: unknown; exact: unknown } {
  try {
    return { json: JSON.parse(text), exact: parseExact(text) };
  } catch {
    return { json: undefined, exact: undefined };
  }
}

/**
 * The exchange for the observers; `undefined` when the answer was too large to judge.
 * @example toExchange(seen, 'https://staging.example.com', '/v1', redact)
 */
export function toExchange(
  seen: SeenExchange,
  targetOrigin: string,
  basePath: string,
  redact: (text: string) => string,
): Exchange | undefined {
  if (seen.responseBody === undefined) return undefined;
  const path = seen.pathAndQuery.slice(basePath.length);
  const auth = authOf(seen.authorization);
  const text = seen.responseBody;
  const { json, exact } = text === '' ? { json: undefined, exact: undefined } : parse(text);
  return {
    spec: {
      method: seen.method,
      path,
      auth,
      ...(seen.requestBody === undefined
        ? { bodyUnread: true }
        : seen.requestBody === ''
          ? {}
          : { body: seen.requestBody }),
      ...(seen.contentType === undefined ? {} : { contentType: seen.contentType }),
      operationId: operationOf(seen.method, path.split('?')[0] ?? '') ?? 'other',
    },
    url: `${targetOrigin}${seen.pathAndQuery}`,
    sentAt: seen.sentAt,
    answeredAt: seen.answeredAt,
    sentAtEpochMs: seen.sentAtEpochMs,
    // A bearer key the server accepted: its rate-limit headers describe that key's quota.
    authenticated: auth === 'key' && seen.status !== 401,
    response: {
      status: seen.status,
      headers: seen.headers,
      text,
      json,
      exact,
      preview: previewOf(text, redact),
    },
  };
}
