/**
 * Puts a single fault in front of the real fake: one msw handler on the fake's origin that may
 * rewrite the request, forwards it to the fake's own handlers (msw's `getResponse`), and may
 * rewrite the answer. The fake itself is never touched.
 */
import { getResponse, http, type RequestHandler } from 'msw';
import { operationOf, versionPrefix } from '../../../contract-tests/contract/interface-facts.ts';
import type { FakeWithCore } from '../../../mock/internal/entry.ts';

/** One intercepted request, with the means to forward it to the real fake. */
export interface Intercepted {
  readonly request: Request;
  readonly url: URL;
  /** The interface operation the request aims at, if any. */
  readonly operation: 'listPets' | 'createPet' | 'getPet' | undefined;
  /** The request body as text (read once, before forwarding). */
  readonly body: string;
  /** Forwards a request (default: the original, unchanged) to the real fake. */
  forward(request?: Request): Promise<Response>;
  readonly fake: FakeWithCore;
}

/** Builds a copy of `request` with another URL, headers or body. */
export function rebuild(
  request: Request,
  change: { url?: URL | string; headers?: Headers; body?: string | null },
): Request {
  const init: RequestInit = { method: request.method, headers: change.headers ?? request.headers };
  if (change.body != null && request.method !== 'GET' && request.method !== 'HEAD')
    init.body = change.body;
  return new Request(change.url ?? request.url, init);
}

/**
 * Wraps a fake: `fault` answers every request to its origin, usually by forwarding it.
 * @example intercept(fake, async (call) => withoutHeader(await call.forward(), 'X-RateLimit-Limit'))
 */
export function intercept(
  fake: FakeWithCore,
  fault: (call: Intercepted) => Promise<Response>,
): RequestHandler[] {
  const origin = fake.config.origins[0] ?? '';
  return [
    http.all(`${origin}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const body =
        request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
      const call: Intercepted = {
        request,
        url,
        body,
        operation: url.pathname.startsWith(versionPrefix)
          ? operationOf(request.method, url.pathname.slice(versionPrefix.length))
          : undefined,
        fake,
        async forward(next) {
          const outgoing =
            next ?? rebuild(request, { body: request.method === 'GET' ? null : body });
          return (
            (await getResponse(fake.handlers, outgoing)) ?? new Response(null, { status: 404 })
          );
        },
      };
      return fault(call);
    }),
  ];
}

/** A copy of a response with its headers changed. */
export function withHeaders(
  response: Response,
  change: (headers: Headers) => void,
  status = response.status,
): Response {
  const headers = new Headers(response.headers);
  change(headers);
  return new Response(response.body, { status, headers });
}

/** A copy of a JSON response with its body changed (`change` returns the new body). */
export async function withJson(
  response: Response,
  change: (body: unknown) => unknown,
  status = response.status,
): Promise<Response> {
  const text = await response.text();
  const body = change(text === '' ? undefined : JSON.parse(text));
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  return new Response(JSON.stringify(body), { status, headers });
}
