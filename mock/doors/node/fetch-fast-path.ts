/**
 * The fetch-only door's fast path: a `fetch` answered by msw's `getResponse` over the current
 * handlers, with none of the per-request frame and event objects msw's network builds (they cost
 * about as much as the handlers). The door takes it only when nobody listens to its life-cycle
 * events and `onUnhandledFrame` is one of msw's named strategies; what msw's interception does
 * around the handlers is done here the same way (the door's tests run both paths side by side
 * with `setupServer`): `bypass()` and `passthrough()` go to the network, `Response.error()` and
 * an aborted signal reject, a handler that throws gets msw's 500, a mocked redirect is followed
 * as fetch follows one, a mocked gzip or deflate body is decoded, and an unmatched request is
 * let through, warned about or refused as the strategy says.
 */
import { getResponse, isPassthroughResponse, type RequestHandler } from 'msw';

/** msw's named strategies for a request no handler answers. */
export type UnhandledStrategy = 'bypass' | 'warn' | 'error';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];

/** A network error as fetch reports one; `cause` says why. */
function networkError(cause: unknown): TypeError {
  return new TypeError('Failed to fetch', { cause });
}

/** msw's `bypass()` marks a request with this Accept value; it is removed before sending. */
export function withoutBypassMark(request: Request): Request {
  const accept = request.headers.get('accept');
  if (accept === null || !accept.includes('msw/passthrough')) return request;
  const next = accept.replace(/(,\s+)?msw\/passthrough/, '');
  if (next === '') request.headers.delete('accept');
  else request.headers.set('accept', next);
  return request;
}

/** msw's message for an unmatched request (`HttpNetworkFrame.getUnhandledMessage`). */
async function unhandledMessage(request: Request): Promise<string> {
  const url = new URL(request.url);
  const body = request.body === null ? null : await request.clone().text();
  return `intercepted a request without a matching request handler:\n\n  \u2022 ${request.method} ${url.origin}${url.pathname}${url.search}\n\n${body ? `  \u2022 Request body: ${body}\n\n` : ''}If you still wish to intercept this unhandled request, please create a request handler for it.\nRead more: https://mswjs.io/docs/http/intercepting-requests`;
}

/** The 500 msw's interceptors answer when a handler throws (`createServerErrorResponse`). */
function handlerErrorResponse(error: unknown): Response {
  const body =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : error;
  return new Response(JSON.stringify(body), {
    status: 500,
    statusText: 'Unhandled Exception',
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Decodes a mocked gzip or deflate body, as fetch does for a real one. */
function decoded(response: Response): Response {
  const coding = response.headers.get('content-encoding')?.trim().toLowerCase();
  if (response.body === null || coding === undefined || coding === '') return response;
  const format = coding === 'gzip' || coding === 'x-gzip' ? 'gzip' : coding;
  if (format !== 'gzip' && format !== 'deflate') return response;
  return new Response(response.body.pipeThrough(new DecompressionStream(format)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The request fetch sends next for a mocked redirect (undici's rules), or a network error. */
function redirectRequest(request: Request, response: Response, count: number): Request {
  if (request.redirect === 'error') throw networkError('unexpected redirect');
  if (count >= MAX_REDIRECTS) throw networkError('redirect count exceeded');
  if (response.status !== 303 && request.body !== null) throw networkError('redirect with a body');
  let location: URL;
  try {
    location = new URL(response.headers.get('location') ?? '', request.url);
  } catch (error) {
    throw networkError(error);
  }
  if (location.protocol !== 'http:' && location.protocol !== 'https:')
    throw networkError('URL scheme must be a HTTP(S) scheme');
  const headers = new Headers(request.headers);
  let method = request.method;
  if (
    ((response.status === 301 || response.status === 302) && method === 'POST') ||
    (response.status === 303 && method !== 'GET' && method !== 'HEAD')
  ) {
    method = 'GET';
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (location.origin !== new URL(request.url).origin)
    for (const name of ['authorization', 'proxy-authorization', 'cookie', 'host'])
      headers.delete(name);
  return new Request(location, {
    method,
    headers,
    redirect: request.redirect,
    signal: request.signal,
  });
}

/** Rejects when the signal aborts, with its reason. */
function abortOf(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Answers one request with `handlers()` (read per request, so `server.use()` applies). */
export async function answerDirectly(
  request: Request,
  handlers: () => RequestHandler[],
  strategy: UnhandledStrategy,
  network: typeof fetch,
  redirects = 0,
): Promise<Response> {
  request.signal.throwIfAborted();
  if (request.headers.get('accept')?.includes('msw/passthrough'))
    return network(withoutBypassMark(request));
  const aborted = abortOf(request.signal);
  aborted.catch(() => {});
  let response: Response | undefined;
  try {
    response = await Promise.race([getResponse(handlers(), request, { quiet: true }), aborted]);
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    console.error(error);
    console.error(
      `[MSW] Encountered an unhandled exception during the handler lookup for "${request.method} ${request.url}". Please see the original error above.`,
    );
    return withUrl(handlerErrorResponse(error), request.url);
  }
  if (response === undefined) {
    if (strategy !== 'bypass') {
      const message = await unhandledMessage(request);
      if (strategy === 'warn') console.warn(`[MSW] Warning: ${message}`);
      else {
        console.error(`[MSW] Error: ${message}`);
        // As under setupServer, where undici reports the refused request as a network error.
        throw networkError(
          new Error(
            '[MSW] Cannot bypass a request when using the "error" strategy for the "onUnhandledFrame" option.',
          ),
        );
      }
    }
    return network(request);
  }
  if (isPassthroughResponse(response)) return network(request);
  if (response.type === 'error') throw networkError(response);
  if (REDIRECTS.has(response.status) && request.redirect !== 'manual') {
    const next = redirectRequest(request, response, redirects);
    const followed = await answerDirectly(next, handlers, strategy, network, redirects + 1);
    Object.defineProperty(followed, 'redirected', { value: true, configurable: true });
    return followed;
  }
  return withUrl(decoded(response), request.url);
}

/** A mocked response carries the URL it answered, as a fetched one does. */
function withUrl(response: Response, url: string): Response {
  Object.defineProperty(response, 'url', { value: url, configurable: true });
  return response;
}
