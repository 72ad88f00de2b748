/**
 * A misbehaving server on 127.0.0.1 for the tests that point the CLI at bad servers: where it
 * listens, when each request arrived, and a close that frees every socket it still holds.
 */
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';

/** One request as the server saw it arrive. */
interface Arrival {
  /** Epoch ms when the request's head had arrived. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
}

/** A running bad server. */
export interface BadServer {
  /** The base URL to pass as `--base-url` (ends in `/v1`). */
  readonly baseUrl: string;
  /** Every request so far, in order of arrival (a node:net server records accepted connections). */
  readonly arrivals: readonly Arrival[];
  close(): Promise<void>;
}

/** How a bad HTTP server answers a request it misbehaves on. */
export type Misbehaviour = (request: IncomingMessage, response: ServerResponse) => void;

/** Options of every bad HTTP server. */
export interface BadServerOptions {
  /**
   * The first request it misbehaves on (default 1: all of them). Earlier ones get a well-formed
   * empty listing, so the harness's preflight passes and the bad answers reach the checks.
   */
  readonly from?: number;
}

/** Answers with an empty page of pets and a plausible quota: what a conforming server may say. */
export function answerEmptyList(response: ServerResponse): void {
  response.writeHead(200, {
    'Content-Type': 'application/json',
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': '59',
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
  });
  response.end('[]');
}

async function listen(server: ReturnType<typeof createNetServer>): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/v1`;
}

/** Starts a node:http server that answers as `misbehave` says. */
export async function startBadHttpServer(
  misbehave: Misbehaviour,
  options: BadServerOptions = {},
): Promise<BadServer> {
  const from = options.from ?? 1;
  const arrivals: Arrival[] = [];
  const server = createHttpServer((request, response) => {
    arrivals.push({ at: Date.now(), method: request.method ?? '', path: request.url ?? '' });
    // A client that gave up (timeout) leaves writes with nowhere to go: not this test's concern.
    response.on('error', () => {});
    if (arrivals.length < from) answerEmptyList(response);
    else misbehave(request, response);
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  const baseUrl = await listen(server);
  return {
    baseUrl,
    arrivals,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Sends `request` on to `upstream`'s server unchanged (method, path, headers but Host, body), as a
 * gateway in front of it does, and hands the answer to `onAnswer`; when the upstream request
 * fails, the client's connection is closed.
 */
export function forwardTo(
  upstream: URL,
  request: IncomingMessage,
  response: ServerResponse,
  onAnswer: (answer: IncomingMessage) => void | Promise<void>,
): void {
  const sent = httpRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, host: upstream.host },
    },
    onAnswer,
  );
  sent.on('error', () => response.destroy());
  request.pipe(sent);
}

/** Starts a node:net server that hands every accepted socket to `onSocket`, below HTTP. */
export async function startBadNetServer(onSocket: (socket: Socket) => void): Promise<BadServer> {
  const arrivals: Arrival[] = [];
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    arrivals.push({ at: Date.now(), method: '', path: '' });
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  const baseUrl = await listen(server);
  return {
    baseUrl,
    arrivals,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
