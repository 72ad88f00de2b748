/**
 * The HTTP door: a node:http server that turns each request into a Fetch `Request` on the
 * origin it serves and answers with msw's `getResponse` over the fake's handlers, so a real
 * port runs exactly the code the browser and `setupServer` run.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';
import { stringifyJson } from '../contract/lossless-json.ts';
import { type ErrorCode, errorBody } from '../core/errors.ts';
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

function toFetchRequest(
  incoming: IncomingMessage,
  origin: string,
  body: Buffer<ArrayBuffer> | undefined,
): Request {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    const name = incoming.rawHeaders[i] as string;
    const value = incoming.rawHeaders[i + 1] as string;
    try {
      headers.append(name, value);
    } catch {
      // A header value the Fetch API refuses (e.g. bytes past Latin-1) is dropped, not fatal.
    }
  }
  const init: RequestInit = { method: incoming.method ?? 'GET', headers };
  if (body !== undefined) init.body = body;
  return new Request(new URL(incoming.url ?? '/', origin), init);
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
  const payload = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  if (payload !== undefined) headers['content-length'] = String(payload.byteLength);
  res.writeHead(response.status, headers);
  res.end(incoming.method === 'HEAD' ? undefined : payload);
}

/** Starts an HTTP door for `handlers` on one socket. */
export async function listenHttp(
  handlers: RequestHandler[],
  options: ListenOptions = {},
): Promise<HttpDoor> {
  const host = options.host ?? '127.0.0.1';
  let origin = options.origin ?? '';
  const server = createServer({ ...doorLimits }, (incoming, res) => {
    const doorOptions = {
      origin,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      errorHeaders: options.errorHeaders ?? (() => ({})),
    };
    answer(handlers, doorOptions, incoming, res).catch((error: unknown) => {
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
