/**
 * The HTTP door: a node:http server that turns each request into a Fetch `Request` on the
 * origin it serves and answers with msw's `getResponse` over the fake's handlers, so a real
 * port runs exactly the code the browser and `setupServer` run.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { getResponse, type RequestHandler } from 'msw';
import { stringifyJson } from '../contract/lossless-json.ts';

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

function toFetchRequest(incoming: IncomingMessage, origin: string): Request {
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
  const method = incoming.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (!BODYLESS.has(method)) {
    init.body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(new URL(incoming.url ?? '/', origin), init);
}

function writeError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(stringifyJson({ code, message, status }));
}

async function answer(
  handlers: RequestHandler[],
  origin: string,
  incoming: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let request: Request;
  try {
    request = toFetchRequest(incoming, origin);
  } catch {
    writeError(res, 400, 'invalid_request', 'The request line or headers could not be parsed.');
    return;
  }
  const response = await getResponse(handlers, request);
  if (response === undefined) {
    writeError(
      res,
      404,
      'route_not_found',
      `No endpoint at ${new URL(request.url).pathname.slice(0, 200)}; the API lives under /v1.`,
    );
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  res.writeHead(response.status, headers);
  if (response.body === null || incoming.method === 'HEAD') {
    res.end();
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Starts an HTTP door for `handlers` on one socket. */
export async function listenHttp(
  handlers: RequestHandler[],
  options: ListenOptions = {},
): Promise<HttpDoor> {
  const host = options.host ?? '127.0.0.1';
  let origin = options.origin ?? '';
  const server = createServer((incoming, res) => {
    answer(handlers, origin, incoming, res).catch((error: unknown) => {
      console.error('petstore-fake: request failed', error);
      writeError(res, 500, 'internal_error', 'The fake failed to handle the request.');
    });
  });
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
