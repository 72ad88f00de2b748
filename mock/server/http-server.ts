/**
 * The HTTP door: a node:http server that hands each request to the fake's behaviour core and
 * writes its answer to the socket. No Fetch `Request` or `Response` and no msw on this path: the
 * core reads the method, URL, headers and body straight from Node's parser output (measured in
 * bench/results.md).
 *
 * It also owns what only a socket has: requests Node's parser refuses (answered with an Error
 * body, see client-errors.ts), `Expect`, `CONNECT` and a missing `Host`, clients that pipeline
 * requests and never read their answers, and a shutdown that cannot be held open by a stalled
 * client.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Behaviour } from '../behaviour.ts';
import type { Answer } from '../core/answer.ts';
import { errorAnswer } from '../core/answer.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { BodyBytes, FakeRequest } from '../core/fake-request.ts';
import { isDropped } from '../qa/answer-marks.ts';
import { answerClientError, doorLimits, writeRawError } from './client-errors.ts';

/** Options of one listening socket. */
export interface ListenOptions {
  readonly host?: string;
  /** Port to listen on; 0 picks a free one. */
  readonly port?: number;
  /**
   * The origin the fake knows this socket as, when it differs from `http://host:port`
   * (e.g. behind a proxy). Default: the socket's own address.
   */
  readonly origin?: string;
  /** Largest request body read, in bytes; larger ones get 413 without being read whole. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Header size, time-outs and backlog bounds of the socket; defaults in client-errors.ts (`doorLimits`). */
  readonly limits?: Partial<DoorLimits>;
}

/** A listening HTTP door. */
export interface HttpDoor {
  readonly server: Server;
  /** The origin requests are answered as, e.g. `http://127.0.0.1:4010`. */
  readonly origin: string;
  /**
   * Stops accepting connections, lets requests in flight finish for up to `graceMs` (default
   * `doorLimits.shutdownGrace`), then closes every connection still open.
   */
  close(graceMs?: number): Promise<void>;
}

const BODYLESS = new Set(['GET', 'HEAD']);
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const EMPTY = new Uint8Array();

/** The door's limits, as numbers. */
type DoorLimits = Record<keyof typeof doorLimits, number>;

/**
 * Reads a body whole, up to `maxBytes`. The door reads it before answering rather than letting
 * the core stream it: an answer that does not need the body (a 401) would otherwise leave it
 * half-read on a kept-alive socket, and the next request would be parsed from its middle.
 */
async function readBody(incoming: IncomingMessage, maxBytes: number): Promise<BodyBytes> {
  if (Number(rawHeader(incoming.rawHeaders, 'content-length') ?? 0) > maxBytes) return 'too-large';
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) return 'too-large';
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** A header of Node's raw header list, duplicates joined by `, ` as Fetch's `Headers.get` does. */
function rawHeader(raw: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const item = raw[i + 1] as string;
    value = value === null ? item : `${value}, ${item}`;
  }
  return value;
}

function toFakeRequest(incoming: IncomingMessage, origin: string, body: BodyBytes): FakeRequest {
  const target = incoming.url ?? '/';
  // Origin-form targets ("/v1/pets") are joined as text: `new URL('//x', origin)` changes host.
  // An absolute-form target keeps only its path and query: this socket serves one origin.
  let url: string;
  if (target.startsWith('/')) url = origin + target;
  else {
    try {
      const parsed = new URL(target);
      url = origin + parsed.pathname + parsed.search;
    } catch {
      url = `${origin}/${target}`;
    }
  }
  const raw = incoming.rawHeaders;
  return {
    method: incoming.method ?? 'GET',
    url,
    header: (name) => rawHeader(raw, name),
    headerList: () => {
      const pairs: [string, string][] = [];
      for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
      return pairs;
    },
    body: async () => body,
  };
}

/** Writes an answer; a HEAD request gets the GET's headers (Content-Length included), no body. */
function writeAnswer(res: ServerResponse, answer: Answer, closing: boolean): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = answer.headers;
  if (answer.body !== undefined) headers['Content-Length'] = Buffer.byteLength(answer.body);
  if (closing) headers.Connection = 'close';
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** Starts an HTTP door for a fake's behaviour on one socket. */
export async function listenHttp(
  behaviour: Behaviour,
  options: ListenOptions = {},
): Promise<HttpDoor> {
  const host = options.host ?? '127.0.0.1';
  const limits = { ...doorLimits, ...options.limits };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let origin = options.origin ?? '';
  let closing = false;
  const errorHeaders = () => behaviour.anonymousRateLimitHeaders();
  const refuse = (res: ServerResponse, code: ErrorCode, message: string) =>
    writeAnswer(res, errorAnswer(code, message, errorHeaders()), true);

  async function answer(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    // Read from the raw list: `incoming.headers` is an object Node builds on first access.
    if (incoming.httpVersion === '1.1' && rawHeader(incoming.rawHeaders, 'host') === null) {
      refuse(res, 'bad_request', 'An HTTP/1.1 request must send a Host header.');
      return;
    }
    let body: BodyBytes = EMPTY;
    if (!BODYLESS.has(incoming.method ?? 'GET')) {
      body = await readBody(incoming, maxBodyBytes);
      if (body === 'too-large') {
        // Refused before it is read whole; closing the connection spares reading the rest.
        refuse(res, 'payload_too_large', `The request body must be at most ${maxBodyBytes} bytes.`);
        return;
      }
    }
    const reply = await behaviour.answer(toFakeRequest(incoming, origin, body));
    // Chaos dropped the connection: close the socket without a word, as a crashed server would.
    if (isDropped(reply)) {
      incoming.socket.destroy();
      return;
    }
    writeAnswer(res, reply, closing);
  }

  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      connectionsCheckingInterval: limits.connectionsCheckingInterval,
      // Node's own refusal of a missing Host is a bare 400; the door writes an Error body instead.
      requireHostHeader: false,
    },
    (incoming, res) => {
      if (overBacklog(incoming.socket, res, limits)) return;
      answer(incoming, res).catch((error: unknown) => {
        // A client that went away mid-body is not a fault of the fake.
        if (incoming.errored !== null || res.destroyed) return;
        console.error('petstore-fake: request failed', error);
        refuse(res, 'internal_error', 'The fake failed to handle the request.');
      });
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket) =>
    answerClientError(error, socket, errorHeaders()),
  );
  // Without these listeners Node answers 417 with an empty body and drops CONNECT unanswered.
  server.on('checkExpectation', (_incoming: IncomingMessage, res: ServerResponse) =>
    refuse(res, 'expectation_failed', 'Only "Expect: 100-continue" is supported.'),
  );
  server.on('connect', (_incoming: IncomingMessage, socket: Duplex) =>
    writeRawError(
      socket,
      errorAnswer(
        'method_not_allowed',
        'CONNECT is not supported: the fake is not a proxy.',
        errorHeaders(),
      ),
    ),
  );
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Node's time-out sweep does not see a client that stopped reading: its requests are complete.
  const sweep = setInterval(
    () => sweepStalled(sockets, limits, Date.now()),
    limits.connectionsCheckingInterval,
  );
  sweep.unref();

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
    close: async (graceMs = limits.shutdownGrace) => {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Node stops its own time-out sweep once the server closes, so a client stalled
      // mid-request would hold the process open: after the grace period every socket is closed.
      const deadline = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, graceMs);
      await closed;
      clearTimeout(deadline);
      clearInterval(sweep);
    },
  };
}

interface SocketWatch {
  /** When the socket last had nothing left to write, or was last seen draining. */
  since: number;
  buffered: number;
}
const watches = new WeakMap<Socket, SocketWatch>();

const unanswered = new WeakMap<Socket, number>();

/**
 * A client that pipelines requests and never reads makes the server queue answers it cannot
 * send, each with its request and response objects. A connection may have at most
 * `maxPipelined` requests waiting for their answers to be sent, and at most `maxBacklogBytes` of
 * unsent answers; past either, it is closed and its queued requests dropped.
 */
function overBacklog(socket: Socket, res: ServerResponse, limits: DoorLimits): boolean {
  const waiting = (unanswered.get(socket) ?? 0) + 1;
  if (waiting > limits.maxPipelined || socket.writableLength > limits.maxBacklogBytes) {
    socket.destroy();
    return true;
  }
  unanswered.set(socket, waiting);
  res.once('close', () => unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1));
  return false;
}

/** Closes sockets whose unsent answers have not moved for `stallTimeout`. */
function sweepStalled(sockets: Set<Socket>, limits: DoorLimits, now: number): void {
  for (const socket of sockets) {
    const buffered = socket.writableLength;
    const watch = watches.get(socket);
    if (buffered === 0 || watch === undefined || buffered < watch.buffered) {
      watches.set(socket, { since: now, buffered });
      continue;
    }
    watch.buffered = buffered;
    if (now - watch.since > limits.stallTimeout) socket.destroy();
  }
}
