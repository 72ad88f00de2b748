/**
 * The HTTP door: a node:http server that hands each request to the fake's behaviour core and
 * writes its answer to the socket. No Fetch `Request` or `Response` and no msw on this path: the
 * core reads the method, URL, headers and body straight from Node's parser output (measured in
 * bench/results.md).
 *
 * It also owns what only a socket has: requests Node's parser refuses (answered with an Error
 * body, see client-errors.ts), `Expect`, `CONNECT` and a missing `Host`, clients that pipeline
 * requests and never read their answers (socket-backpressure.ts), and a shutdown that cannot be
 * held open by a stalled client.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Answer } from '../../base/messages/answer.ts';
import { errorAnswer } from '../../base/messages/answer.ts';
import { equalsIgnoringCase } from '../../base/messages/ascii-case.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';
import type { BodyBytes, FakeRequest } from '../../base/messages/fake-request.ts';
import type { Behaviour } from '../../core/assembly.ts';
import { AnswerBatch } from './answer-batch.ts';
import {
  answerClientError,
  authorizationIn,
  type DoorLimits,
  doorLimits,
  writeRawError,
} from './client-errors.ts';
import { EncodedBodies } from './encoded-bodies.ts';
import { bufferedBody, noBody, readStreamedBody } from './incoming-body.ts';
import { readKernelSendQueues } from './kernel-send-queues.ts';
import { closeConnection, SocketBackpressure } from './socket-backpressure.ts';

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

/** The body's declared length: NaN without a Content-Length (chunked). */
function declaredLength(incoming: IncomingMessage): number {
  return Number(rawHeader(incoming.rawHeaders, 'content-length') ?? Number.NaN);
}

/** A header of Node's raw header list, duplicates joined by `, ` as Fetch's `Headers.get` does. */
function rawHeader(raw: readonly string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    // Names compared without a lower-case copy: the steps ask for a header a dozen times a request.
    if (!equalsIgnoringCase(raw[i] as string, name)) continue;
    const item = raw[i + 1] as string;
    value = value === null ? item : `${value}, ${item}`;
  }
  return value;
}

/**
 * A request as the core reads it, straight from Node's parser output: one object per request
 * (a class, where three closures over the raw headers cost three allocations).
 */
class NodeRequest implements FakeRequest {
  readonly method: string;
  readonly url: string;
  readonly connection: string;
  readonly #raw: readonly string[];
  readonly #body: BodyBytes;

  constructor(incoming: IncomingMessage, origin: string, body: BodyBytes, connection: string) {
    this.method = incoming.method ?? 'GET';
    this.url = absoluteUrl(incoming.url ?? '/', origin);
    this.connection = connection;
    this.#raw = incoming.rawHeaders;
    this.#body = body;
  }

  header(name: string): string | null {
    return rawHeader(this.#raw, name);
  }

  headerList(): [string, string][] {
    const raw = this.#raw;
    const pairs: [string, string][] = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
    return pairs;
  }

  body(): BodyBytes {
    return this.#body;
  }
}

/**
 * The absolute URL of a request target on this socket's origin. Origin-form targets ("/v1/pets")
 * are joined as text: `new URL('//x', origin)` changes host. An absolute-form target keeps only
 * its path and query: this socket serves one origin.
 */
function absoluteUrl(target: string, origin: string): string {
  if (target.startsWith('/')) return origin + target;
  try {
    const parsed = new URL(target);
    return origin + parsed.pathname + parsed.search;
  } catch {
    return `${origin}/${target}`;
  }
}

/** How long a connection refused early goes on reading (and dropping) the body it was sent. */
const lingerMs = 2_000;

/**
 * Closes a connection refused before its body was read in stages, as RFC 9112 (section 9.6,
 * "Tear-down") asks: the answer and a FIN first, then what the client still sends is read and
 * dropped for up to `lingerMs`, then the socket is closed. Closed at once, with the client still
 * sending, the server's TCP stack answers the rest with a reset, which may erase the 413 from
 * the client's buffers before it is read (a proxy in front saw a lost connection, not the 413).
 * Node closes a `Connection: close` socket with `destroySoon()` once the answer is out; this
 * socket's does the above instead, while the request, never consumed, is dumped by Node.
 */
function closeInStages(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Writes an answer; a HEAD request gets the GET's headers (Content-Length included), no body. */
function writeAnswer(
  res: ServerResponse,
  answer: Answer,
  closing: boolean,
  bodies: EncodedBodies,
): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const headers: Record<string, string | number> = answer.headers;
  const body = answer.body === undefined ? undefined : bodies.encode(answer.body);
  if (body !== undefined)
    headers['Content-Length'] =
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (closing) headers.Connection = 'close';
  res.writeHead(answer.status, headers);
  res.end(body);
}

/**
 * How one door answers: each request Node parsed handed to the core, the core's answer written
 * back (or the connection dropped where chaos or a stub asks), and the door's own refusals.
 */
class DoorAnswers {
  readonly #behaviour: Behaviour;
  readonly #limits: DoorLimits;
  readonly #maxBodyBytes: number;
  readonly #bodies = new EncodedBodies();
  readonly backpressure = new SocketBackpressure();
  /** An id per socket, for the client report: requests on one connection come from one client. */
  readonly #connections = new WeakMap<Socket, string>();
  /** The origin requests are answered as: given, or the socket's own once it listens. */
  origin: string;
  /** Set once the door closes: its answers then close their connections. */
  closing = false;

  constructor(behaviour: Behaviour, limits: DoorLimits, maxBodyBytes: number, origin: string) {
    this.#behaviour = behaviour;
    this.#limits = limits;
    this.#maxBodyBytes = maxBodyBytes;
    this.origin = origin;
  }

  /** The request as the core reads it, its connection named by the fake. */
  #request(incoming: IncomingMessage, body: BodyBytes): FakeRequest {
    let connection = this.#connections.get(incoming.socket);
    if (connection === undefined) {
      connection = this.#behaviour.connectionId('http');
      this.#connections.set(incoming.socket, connection);
    }
    return new NodeRequest(incoming, this.origin, body, connection);
  }

  /**
   * The caller's plan on the door's own refusals too, when `authorization` holds a valid key;
   * handed to `write` at once, or once a replica has read the caller's usage (never rejected).
   */
  withErrorHeaders(authorization: string | null, write: (headers: Record<string, string>) => void) {
    const headers = this.#behaviour.rateLimitHeaders(authorization);
    if (headers instanceof Promise) void headers.then(write);
    else write(headers);
  }

  refuse(
    incoming: IncomingMessage,
    res: ServerResponse,
    code: ErrorCode,
    message: string,
    started = performance.now(),
    body: BodyBytes = noBody,
  ): void {
    this.withErrorHeaders(rawHeader(incoming.rawHeaders, 'authorization'), (headers) => {
      const refusal = errorAnswer(code, message, headers);
      // Parsed, so the core can log and journal it: a request refused here is one the app sent.
      this.#behaviour.refusedByDoor(this.#request(incoming, body), refusal, started, body);
      writeAnswer(res, refusal, true, this.#bodies);
    });
  }

  /** Writes an answer, or drops the connection where chaos or a stub asks to. */
  readonly #write = (incoming: IncomingMessage, res: ServerResponse, reply: Answer): void => {
    try {
      // Chaos or a stub dropped the connection: close the socket without a word, as a crashed
      // server would.
      if (reply.drop === true) incoming.socket.destroy();
      else writeAnswer(res, reply, this.closing, this.#bodies);
    } catch (error) {
      this.#failed(incoming, res, error);
    }
  };

  /** The core's answers, sent with the rest of their turn's (answer-batch.ts). */
  readonly #batch = new AnswerBatch(this.#write);

  /** Answers a request; a failure of the fake's is answered with a 500, never thrown. */
  answer(incoming: IncomingMessage, res: ServerResponse): void {
    // Read from the raw list: `incoming.headers` is an object Node builds on first access.
    if (incoming.httpVersion === '1.1' && rawHeader(incoming.rawHeaders, 'host') === null) {
      this.refuse(incoming, res, 'bad_request', 'An HTTP/1.1 request must send a Host header.');
      return;
    }
    // A GET or HEAD goes straight to the core: no body to wait for, no async frame.
    if (BODYLESS.has(incoming.method ?? 'GET'))
      this.#behaviour.answer(this.#request(incoming, noBody)).then(
        (reply) => this.#batch.add(incoming, res, reply),
        (error: unknown) => this.#failed(incoming, res, error),
      );
    else void this.#answerWithBody(incoming, res);
  }

  async #answerWithBody(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const started = performance.now();
      const declared = declaredLength(incoming);
      let body: BodyBytes | undefined = declared > this.#maxBodyBytes ? 'too-large' : undefined;
      if (body === undefined) {
        await undefined; // the parser pushes what came with the headers
        body = bufferedBody(incoming, declared);
      }
      if (body === undefined) {
        const received = this.backpressure.receivingBody(incoming.socket, this.#limits);
        try {
          body = await readStreamedBody(incoming, this.#maxBodyBytes);
        } finally {
          received();
        }
      }
      if (body === 'too-large') {
        // Refused before it is read whole; closing the connection spares reading the rest.
        closeInStages(incoming.socket);
        const message = `The request body must be at most ${this.#maxBodyBytes} bytes.`;
        this.refuse(incoming, res, 'payload_too_large', message, started, 'too-large');
        return;
      }
      const reply = await this.#behaviour.answer(this.#request(incoming, body));
      this.#batch.add(incoming, res, reply);
    } catch (error) {
      this.#failed(incoming, res, error);
    }
  }

  #failed(incoming: IncomingMessage, res: ServerResponse, error: unknown): void {
    // A client that went away mid-body is not a fault of the fake.
    if (incoming.errored !== null || res.destroyed) return;
    console.error('petstore-fake: request failed', error);
    this.refuse(incoming, res, 'internal_error', 'The fake failed to handle the request.');
  }
}

/**
 * Error bodies for what Node's parser refuses, `Expect` other than 100-continue and `CONNECT`:
 * without these listeners Node answers a bare 400, a 417 with an empty body, and drops CONNECT
 * unanswered.
 */
function answerWhatNodeRefuses(server: Server, door: DoorAnswers): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket) =>
    door.withErrorHeaders(authorizationIn(error.rawPacket), (headers) =>
      answerClientError(error, socket, headers),
    ),
  );
  server.on('checkExpectation', (incoming: IncomingMessage, res: ServerResponse) =>
    door.refuse(incoming, res, 'expectation_failed', 'Only "Expect: 100-continue" is supported.'),
  );
  server.on('connect', (incoming: IncomingMessage, socket: Duplex) =>
    door.withErrorHeaders(rawHeader(incoming.rawHeaders, 'authorization'), (headers) =>
      writeRawError(
        socket,
        errorAnswer(
          'method_not_allowed',
          'CONNECT is not supported: the fake is not a proxy.',
          headers,
        ),
      ),
    ),
  );
}

/** Starts an HTTP door for a fake's behaviour on one socket. */
export async function listenHttp(
  behaviour: Behaviour,
  options: ListenOptions = {},
): Promise<HttpDoor> {
  const host = options.host ?? '127.0.0.1';
  const limits = { ...doorLimits, ...options.limits };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const door = new DoorAnswers(behaviour, limits, maxBodyBytes, options.origin ?? '');
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
      if (door.backpressure.enter(incoming.socket, res, limits)) door.answer(incoming, res);
      else door.backpressure.defer(incoming.socket, limits, () => door.answer(incoming, res));
    },
  );
  // Node's keep-alive time-out would close a connection with a FIN: see closeConnection.
  server.on('timeout', (socket: Socket) => closeConnection(socket));
  answerWhatNodeRefuses(server, door);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Node's time-out sweep does not see a client that stopped reading: its requests are complete.
  const sweep = setInterval(
    () => door.backpressure.sweepStalled(sockets, limits, Date.now()),
    limits.connectionsCheckingInterval,
  );
  sweep.unref();

  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  if (door.origin === '') {
    const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    door.origin = `http://${hostname}:${address.port}`;
  }
  return {
    server,
    origin: door.origin,
    close: async (graceMs = limits.shutdownGrace) => {
      door.closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Node stops its own time-out sweep once the server closes, so a client stalled
      // mid-request would hold the process open: after the grace period every socket is closed.
      const deadline = setTimeout(() => {
        const queues = readKernelSendQueues();
        for (const socket of sockets) closeConnection(socket, queues);
      }, graceMs);
      await closed;
      clearTimeout(deadline);
      clearInterval(sweep);
    },
  };
}
