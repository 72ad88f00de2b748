/** Small building blocks for mutants: forward-then-rewrite, rewrite-then-forward, and request edits. */

import { parseExact, toJsonText } from '../../../contract-tests/http/exact-json.ts';
import type { FakeWithCore } from '../../../mock/internal/entry.ts';
import { type Intercepted, intercept, rebuild, withJson } from './intercept.ts';

/** Rewrites an answer of the real fake. */
export type AnswerFault = (response: Response, call: Intercepted) => Response | Promise<Response>;

/** Forwards every request, then lets `fault` rewrite the answer. */
export const after = (fault: AnswerFault) => (fake: FakeWithCore) =>
  intercept(fake, async (call) => fault(await call.forward(), call));

/** Rewrites the rows of every 200 answer to `GET /pets`; other answers pass unchanged. */
export const afterListing = (
  edit: (rows: Record<string, unknown>[], call: Intercepted) => unknown[],
) =>
  after(async (response, call) =>
    call.operation === 'listPets' && response.status === 200
      ? withJson(response, (rows) => edit(rows as Record<string, unknown>[], call))
      : response,
  );

/** Every listed pet without its categoryId (a Pet requires it). */
export const listedWithoutCategory = afterListing((rows) =>
  rows.map(({ categoryId: _, ...pet }) => pet),
);

/** Forwards `operation` requests after `change` rewrites them (or answers itself); others unchanged. */
export const before =
  (
    operation: Intercepted['operation'],
    change: (call: Intercepted) => Request | Response | Promise<Request | Response>,
  ) =>
  (fake: FakeWithCore) =>
    intercept(fake, async (call) => {
      if (call.operation !== operation) return call.forward();
      const next = await change(call);
      return next instanceof Response ? next : call.forward(next);
    });

/** The request with its query edited. */
export const withQuery = (call: Intercepted, edit: (query: URLSearchParams) => void): Request => {
  const url = new URL(call.url);
  edit(url.searchParams);
  return rebuild(call.request, { url, body: null });
};

/** Parses JSON keeping int64 digits, or `undefined` when it is not JSON. */
export function safeParse(text: string): unknown {
  try {
    return parseExact(text);
  } catch {
    return undefined;
  }
}

/** The request with its JSON object body edited (other bodies pass unchanged). */
export const withBody = (
  call: Intercepted,
  edit: (body: Record<string, unknown>) => void,
): Request => {
  // Exact parsing: the fault must not also round int64 values on the way through.
  const body = safeParse(call.body);
  if (body === undefined) return rebuild(call.request, { body: call.body });
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    edit(body as Record<string, unknown>);
  return rebuild(call.request, { body: toJsonText(body) });
};

/** The request with another Authorization header. */
export const withAuth = (call: Intercepted, value: string): Request => {
  const headers = new Headers(call.request.headers);
  headers.set('Authorization', value);
  return rebuild(call.request, { headers, body: call.request.method === 'GET' ? null : call.body });
};

/** Whether an answer is an error (4xx or 5xx). */
export const isError = (response: Response) => response.status >= 400;

/** A 500 with an Error body and the fake's own rate-limit headers, so only the status is wrong. */
export function serverError(fake: FakeWithCore): Response {
  return new Response(JSON.stringify({ code: 'internal_error', message: 'boom', status: 500 }), {
    status: 500,
    headers: { 'Content-Type': 'application/json', ...fake.anonymousRateLimitHeaders() },
  });
}
