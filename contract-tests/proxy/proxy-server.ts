/**
 * `petstore-contract proxy`: a forwarding proxy in front of a Pet Store server. Every request is
 * forwarded unchanged (streamed both ways, upstream connections kept alive, the client's key
 * passed through) and every exchange is shown to the harness's observers; the proxy sends no
 * request of its own. `GET /__contract/report` answers the verdicts so far.
 *
 * It keeps the promises of the server behind it (proxy-route.ts): it answers only `Host` names
 * that name it (a page on another name rebound to 127.0.0.1 gets 403, as the fake's own Host check
 * would give it; the proxy sends the target's own Host, so the target cannot check it), and it
 * forwards only paths under the target's base path, with no dot segment however encoded. The
 * target's own answer passes through even when it comes before the request's body is sent (a
 * 413); a target that cannot be reached is told apart from one that fails.
 */
import { createHash } from 'node:crypto';
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Exchange } from '../http/exchange.ts';
import { type SeenExchange, toExchange } from './passive-exchange.ts';
import { proxyRoute } from './proxy-route.ts';

/** Options of a proxy. */
export interface ProxyOptions {
  /** The server's base URL, ending in `/v1`. */
  readonly target: string;
  readonly port: number;
  readonly host: string;
  /** The `Host` names answered (any port); `.example.test` admits its subdomains. */
  readonly allowedHosts: readonly string[];
  /** Most bytes of a body kept for judging; the rest is forwarded but not judged. */
  readonly maxBodyBytes: number;
  /** Shown each exchange the observers can judge, with the client's key id. */
  readonly onExchange: (exchange: Exchange, keyId: string | undefined) => void;
  /** Told of each request the target could not be reached for (no verdict on it). */
  readonly onUnreachable: (reason: string) => void;
  /** Told of each key seen, so reports can redact it. */
  readonly onKey: (key: string) => void;
  /** Answers `GET /__contract/report` (`format` is `text` or `json`). */
  readonly report: (format: 'text' | 'json') => string;
  readonly redact: (text: string) => string;
}

/** A running proxy. */
export interface RunningProxy {
  /** The proxy's base URL: where clients send what they would send to the target. */
  readonly baseUrl: string;
  /** Requests forwarded so far. */
  readonly forwarded: number;
  close(): Promise<void>;
}

/** Headers that belong to one connection and are never forwarded (RFC 9110, section 7.6.1). */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !hopByHop.has(name) && !named.has(name)) kept[name] = value;
  return kept;
}

/** Error codes that say the target was never reached: no connection, no name, no route. */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

/** An Error body the proxy answers itself with (its own refusals, a target it cannot reach). */
function refuse(response: ServerResponse, status: number, code: string, message: string): void {
  const body = JSON.stringify({ code, message: `petstore-contract proxy: ${message}`, status });
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** Collects up to `cap` bytes of a stream's chunks; past that, only counts. */
function capture(cap: number): { add(chunk: Buffer): void; text(): string | undefined } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer) {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    },
    /** The text, or undefined when the body passed the cap. */
    text: () => (size > cap ? undefined : Buffer.concat(chunks).toString('utf8')),
  };
}

function keyIdOf(authorization: string | undefined): { key?: string; id?: string } {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  if (match?.[1] === undefined) return {};
  return { key: match[1], id: createHash('sha256').update(match[1]).digest('hex').slice(0, 16) };
}

/** The server behind the proxy, and how to reach it. */
interface Upstream {
  readonly target: URL;
  /** The target's path without its trailing slashes, e.g. `/v1`. */
  readonly basePath: string;
  readonly agent: HttpAgent | HttpsAgent;
  readonly send: typeof httpRequest | typeof httpsRequest;
}

/** Answers `GET /__contract/report`: the verdicts so far, as text or (`?format=json`) JSON. */
function answerReport(options: ProxyOptions, request: IncomingMessage, response: ServerResponse) {
  const json = new URL(request.url ?? '/', 'http://proxy').searchParams.get('format') === 'json';
  const body = options.redact(options.report(json ? 'json' : 'text'));
  response.writeHead(200, {
    'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
  });
  response.end(body);
}

/**
 * One request forwarded to the target, both bodies streamed through, and the exchange shown to
 * the observers once the target's answer has ended (or the fault, when it never came).
 */
class ForwardedRequest {
  readonly #upstream: Upstream;
  readonly #options: ProxyOptions;
  readonly #request: IncomingMessage;
  readonly #response: ServerResponse;
  readonly #sentAt = performance.now();
  readonly #sentAtEpochMs = Date.now();
  readonly #pathAndQuery: string;
  readonly #key: string | undefined;
  readonly #keyId: string | undefined;
  readonly #requestBody: ReturnType<typeof capture>;
  /** Whether the connection to the target was made, and the target's answer has ended. */
  #connected = false;
  #answered = false;

  constructor(
    upstream: Upstream,
    options: ProxyOptions,
    request: IncomingMessage,
    response: ServerResponse,
  ) {
    this.#upstream = upstream;
    this.#options = options;
    this.#request = request;
    this.#response = response;
    this.#pathAndQuery = request.url ?? '/';
    const { key, id } = keyIdOf(request.headers.authorization);
    this.#key = key;
    this.#keyId = id;
    if (key !== undefined) options.onKey(key);
    this.#requestBody = capture(options.maxBodyBytes);
  }

  /** Sends the request on; every request forwarded is under the base path, so every one is judged. */
  start(): void {
    const { target, agent, send } = this.#upstream;
    const request = this.#request;
    const upstream = send(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        path: this.#pathAndQuery,
        headers: { ...forwardable(request.headers), host: target.host },
        agent,
      },
      (answer) => this.#passOn(answer, upstream),
    );
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (this.#connected = true));
      else this.#connected = true;
    });
    upstream.on('error', (error) => this.#failed(error));
    request.on('data', (chunk: Buffer) => this.#requestBody.add(chunk));
    request.pipe(upstream);
  }

  /** Streams the target's answer to the client, keeping what the observers judge. */
  #passOn(answer: IncomingMessage, upstream: ReturnType<Upstream['send']>): void {
    const kept = forwardable(answer.headers);
    this.#response.writeHead(answer.statusCode ?? 502, kept);
    const responseBody = capture(this.#options.maxBodyBytes);
    answer.on('data', (chunk: Buffer) => {
      responseBody.add(chunk);
      this.#response.write(chunk);
    });
    answer.on('end', () => {
      this.#answered = true;
      this.#response.end();
      // An answer before the whole body was sent (a 413): the rest is read here and dropped,
      // and the target's connection, left mid-request, is not used again.
      if (!this.#request.complete) {
        this.#request.unpipe(upstream);
        this.#request.resume();
        upstream.destroy();
      }
      this.#show(answer, kept, responseBody.text());
    });
    answer.on('error', () => this.#response.destroy());
  }

  #show(
    answer: IncomingMessage,
    kept: Record<string, string | string[]>,
    responseBody: string | undefined,
  ): void {
    const headers = new Headers();
    for (const [name, value] of Object.entries(kept))
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    const seen: SeenExchange = {
      method: this.#request.method ?? 'GET',
      pathAndQuery: this.#pathAndQuery,
      authorization: this.#request.headers.authorization,
      contentType: this.#request.headers['content-type'],
      requestBody: this.#requestBody.text(),
      status: answer.statusCode ?? 0,
      headers,
      responseBody,
      sentAt: this.#sentAt,
      answeredAt: performance.now(),
      sentAtEpochMs: this.#sentAtEpochMs,
    };
    const { target, basePath } = this.#upstream;
    const exchange = toExchange(seen, target.origin, basePath, this.#options.redact);
    if (exchange !== undefined) this.#options.onExchange(exchange, this.#keyId);
  }

  #failed(error: Error): void {
    // The answer was passed on whole: what the target's socket did afterwards is not the client's.
    if (this.#answered) return;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!this.#connected || unreachableCodes.has(code)) {
      // Never reached: no evidence about the interface either way.
      this.#options.onUnreachable(code || error.message);
      this.#refuse(`the target could not be reached (${code || error.message})`);
      return;
    }
    const { target, basePath } = this.#upstream;
    this.#options.onExchange(
      {
        spec: {
          method: this.#request.method ?? 'GET',
          path: this.#pathAndQuery.slice(basePath.length),
          auth: this.#key === undefined ? 'none' : 'key',
          operationId: 'other',
        },
        url: `${target.origin}${this.#pathAndQuery}`,
        sentAt: this.#sentAt,
        answeredAt: performance.now(),
        sentAtEpochMs: this.#sentAtEpochMs,
        authenticated: false,
        fault: {
          kind: 'connection',
          message: `the target closed the connection without an answer: ${error.message}`,
        },
      },
      this.#keyId,
    );
    this.#refuse(`the target did not answer (${error.message})`);
  }

  /** A 502 the proxy answers itself, or a cut connection once the target's headers went out. */
  #refuse(message: string): void {
    if (this.#response.headersSent) this.#response.destroy();
    else refuse(this.#response, 502, 'bad_gateway', message);
  }
}

/**
 * Starts a proxy.
 * @example const proxy = await startProxy({ target: 'https://staging.example.com/v1', port: 4020, ... })
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const secure = target.protocol === 'https:';
  const upstream: Upstream = {
    target,
    basePath: target.pathname.replace(/\/+$/, ''),
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    send: secure ? httpsRequest : httpRequest,
  };
  let forwarded = 0;
  const server: Server = createServer((request, response) => {
    const route = proxyRoute(request, options.allowedHosts, upstream.basePath);
    if (route === 'report') answerReport(options, request, response);
    else if (route === 'forward') {
      forwarded += 1;
      new ForwardedRequest(upstream, options, request, response).start();
    } else {
      // The refused request's body is read and dropped: the connection stays usable.
      request.resume();
      refuse(response, route.status, route.code, route.message);
    }
  });
  server.listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}${upstream.basePath}`,
    get forwarded() {
      return forwarded;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      upstream.agent.destroy();
    },
  };
}
