/**
 * The HTTP door: a node:http server that turns each request into a Fetch `Request` on the
 * origin it serves and answers with msw's `getResponse` over the fake's handlers, so a real
 * port runs exactly the code the browser and `setupServer` run.
 *
 * Every request crosses this door, so it does no work the answer does not need (measured in
 * bench/optimisations.md): it builds the Request in one pass, lets msw skip its per-request clone,
 * tries only the handlers of its own origin, writes the fake's JSON text without reading it back
 * from the Response's stream, and writes the body with a Content-Length.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, RequestHandler } from 'msw';
import { stringifyJson } from '../contract/lossless-json.ts';
import { type ErrorCode, errorBody } from '../core/errors.ts';
import { jsonResponseText } from '../core/json-response.ts';
import { answerClientError, doorLimits } from './client-errors.ts';

/** Options of one listening socket. */
export interface ListenOptions {
  readonly host?: string;
  /** Port to listen on; 0 picks a free one. */
  readonly port?: number;
  /**
   * The origin the handlers know this socket as, when it differs from `http://host:port`
   * (e.g. behind a proxy). Default: the socket's own address.
   */
  readonly origin?: string;
  /** Headers for answers the door writes itself (parse errors): e.g. the anonymous rate-limit headers. */
  readonly errorHeaders?: () => Record<string, string>;
  /** Largest request body read, in bytes; larger ones get 413 without being read whole. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Header size and time-outs of the socket; defaults in client-errors.ts (`doorLimits`). */
  readonly limits?: Partial<Record<keyof typeof doorLimits, number>>;
}

/** A listening HTTP door. */
export interface HttpDoor {
  readonly server: Server;
  /** The origin requests are answered as, e.g. `http://127.0.0.1:4010`. */
  readonly origin: string;
  /** Stops accepting connections and waits for in-flight requests to finish. */
  close(): Promise<void>;
}

const BODYLESS = new Set(['GET', 'HEAD']);
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * msw clones every Request before it runs the handlers, only so that its logging can read the
 * body again; `getResponse` never reads that clone. Registering a request as its own clone in
 * msw's clone cache skips the copy (about 25 us a request, bench/optimisations.md). If a later
 * msw drops the cache, this does nothing and msw clones as before.
 */
const requestClones: unknown = (RequestHandler as unknown as { cache?: unknown }).cache;
function skipClone(request: Request): void {
  if (requestClones instanceof WeakMap) requestClones.set(request, request);
}

function headerPairs(raw: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

/** The headers without those the Fetch API refuses (e.g. bytes past Latin-1): dropped, not fatal. */
function acceptedHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (const [name, value] of headerPairs(raw)) {
    try {
      headers.append(name, value);
    } catch {
      // This header is dropped, not the request.
    }
  }
  return headers;
}

function toFetchRequest(
  incoming: IncomingMessage,
  origin: string,
  body: Buffer<ArrayBuffer> | undefined,
): Request {
  const target = incoming.url ?? '/';
  // Origin-form targets ("/v1/pets") are joined as text: `new URL('//x', origin)` changes host.
  const url = target.startsWith('/') ? origin + target : new URL(target, origin);
  const init: RequestInit = { method: incoming.method ?? 'GET' };
  if (body !== undefined) init.body = body;
  try {
    // One pass: the Request copies the pairs into its own Headers.
    return new Request(url, { ...init, headers: headerPairs(incoming.rawHeaders) });
  } catch {
    // Usually a header value the Fetch API refuses; if the URL is at fault this throws again.
    return new Request(url, { ...init, headers: acceptedHeaders(incoming.rawHeaders) });
  }
}

/**
 * The handlers that can answer on `origin`. One socket serves one origin, so handlers bound to
 * another absolute origin are dropped once instead of being tried on every request; relative
 * paths, wildcard or parameterised origins, RegExps and predicates are all kept.
 */
function handlersForOrigin(handlers: readonly RequestHandler[], origin: string): RequestHandler[] {
  const own = origin.toLowerCase();
  return handlers.filter((handler) => {
    const path = (handler.info as { path?: unknown }).path;
    if (typeof path !== 'string') return true;
    const bound = /^https?:\/\/[^/]*/i.exec(path)?.[0];
    if (bound === undefined) return true;
    const authority = bound.slice(bound.indexOf('//') + 2).replace(/:\d+$/, '');
    if (/[*:{}]/.test(authority)) return true;
    return bound.toLowerCase() === own;
  });
}

/**
 * Reads a body whole, up to `maxBytes`. The door reads it rather than streaming it into the
 * Request: a handler that answers without reading the body would otherwise leave it half-read
 * on a kept-alive socket, and the next request would be parsed from the middle of it.
 */
async function readBody(
  incoming: IncomingMessage,
  maxBytes: number,
): Promise<Buffer<ArrayBuffer> | 'too-large'> {
  if (Number(incoming.headers['content-length'] ?? 0) > maxBytes) return 'too-large';
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

function writeError(
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  headers: Record<string, string>,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = stringifyJson(errorBody(code, message));
  res.writeHead(errorBody(code).status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function answer(
  handlers: RequestHandler[],
  options: Required<Pick<ListenOptions, 'maxBodyBytes' | 'errorHeaders'>> & { origin: string },
  incoming: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let body: Buffer<ArrayBuffer> | undefined;
  if (!BODYLESS.has(incoming.method ?? 'GET')) {
    const read = await readBody(incoming, options.maxBodyBytes);
    if (read === 'too-large') {
      // Refused before it is read whole; closing the connection spares reading the rest.
      writeError(
        res,
        'payload_too_large',
        `The request body must be at most ${options.maxBodyBytes} bytes.`,
        { ...options.errorHeaders(), Connection: 'close' },
      );
      return;
    }
    body = read;
  }
  let request: Request;
  try {
    request = toFetchRequest(incoming, options.origin, body);
  } catch {
    writeError(
      res,
      'bad_request',
      'The request line or headers could not be parsed.',
      options.errorHeaders(),
    );
    return;
  }
  skipClone(request);
  const response = await getResponse(handlers, request);
  if (response === undefined) {
    writeError(
      res,
      'route_not_found',
      `No endpoint at ${new URL(request.url).pathname.slice(0, 200)}; the API lives under /v1.`,
      options.errorHeaders(),
    );
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  // A fake's own JSON answer hands over its text; anything else is read from its body stream.
  const text = jsonResponseText(response);
  const payload =
    text !== undefined
      ? Buffer.from(text)
      : response.body === null
        ? undefined
        : await response.bytes();
  if (payload !== undefined) headers['content-length'] = String(payload.byteLength);
  res.writeHead(response.status, headers);
  res.end(incoming.method === 'HEAD' ? undefined : payload);
}

/**
 * Starts an HTTP door for `handlers` on one socket. It picks the handlers that can match its
 * origin when it starts listening, so add handlers before calling it.
 */
export async function listenHttp(
  handlers: RequestHandler[],
  options: ListenOptions = {},
): Promise<HttpDoor> {
  const host = options.host ?? '127.0.0.1';
  let origin = options.origin ?? '';
  let served: RequestHandler[] = [];
  const server = createServer({ ...doorLimits, ...options.limits }, (incoming, res) => {
    const doorOptions = {
      origin,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      errorHeaders: options.errorHeaders ?? (() => ({})),
    };
    answer(served, doorOptions, incoming, res).catch((error: unknown) => {
      // A client that went away mid-body is not a fault of the fake.
      if (incoming.errored !== null || res.destroyed) return;
      console.error('petstore-fake: request failed', error);
      writeError(
        res,
        'internal_error',
        'The fake failed to handle the request.',
        doorOptions.errorHeaders(),
      );
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) =>
    answerClientError(error, socket, options.errorHeaders?.() ?? {}),
  );
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  if (origin === '') {
    const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    origin = `http://${hostname}:${address.port}`;
  }
  served = handlersForOrigin(handlers, origin);
  return {
    server,
    origin,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
