/**
 * `petstore-contract proxy`: a forwarding proxy in front of a Pet Store server. Every request is
 * forwarded unchanged (streamed both ways, upstream connections kept alive, the client's key
 * passed through) and every exchange is shown to the harness's observers; the proxy sends no
 * request of its own. `GET /__contract/report` answers the verdicts so far.
 *
 * It keeps the promises of the server behind it: it answers only `Host` names that name it (a
 * page on another name rebound to 127.0.0.1 gets 403, as the fake's own Host check would give
 * it; the proxy sends the target's own Host, so the target cannot check it), and it forwards only
 * paths under the target's base path, with no dot segment however encoded (a control surface
 * beside the API, such as the fake's `/__control/`, is never reached through it). The target's
 * own answer passes through even when it comes before the request's body is sent (a 413); a
 * target that cannot be reached is told apart from one that fails.
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
import { hostProblem } from '../../mock/internal/entry.ts';
import type { Exchange } from '../http/exchange.ts';
import { dotSegmentProblem } from '../http/plain-path.ts';
import { type SeenExchange, toExchange } from './passive-exchange.ts';

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
function capture(cap: number) {
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

/**
 * Starts a proxy.
 * @example const proxy = await startProxy({ target: 'https://staging.example.com/v1', port: 4020, ... })
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  let forwarded = 0;

  /**
   * Where a request goes: the proxy's own report, the target, or a refusal the proxy answers
   * itself (why it does not forward it).
   */
  const routeOf = (
    request: IncomingMessage,
  ): 'report' | 'forward' | { status: number; code: string; message: string } => {
    const host = request.headers.host;
    const wrongHost = hostProblem(host ?? null, options.allowedHosts);
    if (wrongHost !== undefined)
      return {
        status: 403,
        code: 'host_not_allowed',
        message: `Host "${String(host).slice(0, 100)}" is not one this proxy answers to (allowed: ${options.allowedHosts.join(', ')}); add it with --allowed-hosts.`,
      };
    const target = request.url ?? '';
    const path = target.split('?')[0] ?? '';
    // Its own report, read only: anything else at that path is neither answered nor forwarded.
    if (path === '/__contract/report' && request.method === 'GET') return 'report';
    const under = path === basePath || path.startsWith(`${basePath}/`);
    if (!target.startsWith('/') || !under)
      return {
        status: 404,
        code: 'not_forwarded',
        message: `forwards only paths under ${basePath || '/'}; ${path.slice(0, 100)} is not one.`,
      };
    const dots = dotSegmentProblem(path);
    if (dots !== undefined || path.includes('\\'))
      return {
        status: 400,
        code: 'bad_request',
        message: `the path has ${dots ?? 'a backslash'}; it is not forwarded.`,
      };
    return 'forward';
  };

  const answerReport = (request: IncomingMessage, response: ServerResponse) => {
    const json = new URL(request.url ?? '/', 'http://proxy').searchParams.get('format') === 'json';
    const body = options.redact(options.report(json ? 'json' : 'text'));
    response.writeHead(200, {
      'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
    });
    response.end(body);
  };

  const forward = (request: IncomingMessage, response: ServerResponse) => {
    forwarded += 1;
    const sentAt = performance.now();
    const sentAtEpochMs = Date.now();
    const pathAndQuery = request.url ?? '/';
    const authorization = request.headers.authorization;
    const { key, id } = keyIdOf(authorization);
    if (key !== undefined) options.onKey(key);
    // Every request forwarded is under the base path (see `routeOf`), so every one is judged.
    const cap = options.maxBodyBytes;
    const requestBody = capture(cap);
    /** Whether the connection to the target was made, and the target's answer has ended. */
    let connected = false;
    let answered = false;
    const upstream = send(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        path: pathAndQuery,
        headers: { ...forwardable(request.headers), host: target.host },
        agent,
      },
      (answer) => {
        const kept = forwardable(answer.headers);
        response.writeHead(answer.statusCode ?? 502, kept);
        const responseBody = capture(cap);
        answer.on('data', (chunk: Buffer) => {
          responseBody.add(chunk);
          response.write(chunk);
        });
        answer.on('end', () => {
          answered = true;
          response.end();
          // An answer before the whole body was sent (a 413): the rest is read here and dropped,
          // and the target's connection, left mid-request, is not used again.
          if (!request.complete) {
            request.unpipe(upstream);
            request.resume();
            upstream.destroy();
          }
          const headers = new Headers();
          for (const [name, value] of Object.entries(kept))
            for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
          const seen: SeenExchange = {
            method: request.method ?? 'GET',
            pathAndQuery,
            authorization,
            contentType: request.headers['content-type'],
            requestBody: requestBody.text(),
            status: answer.statusCode ?? 0,
            headers,
            responseBody: responseBody.text(),
            sentAt,
            answeredAt: performance.now(),
            sentAtEpochMs,
          };
          const exchange = toExchange(seen, target.origin, basePath, options.redact);
          if (exchange !== undefined) options.onExchange(exchange, id);
        });
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    upstream.on('error', (error) => {
      // The answer was passed on whole: what the target's socket did afterwards is not the client's.
      if (answered) return;
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!connected || unreachableCodes.has(code)) {
        // Never reached: no evidence about the interface either way.
        options.onUnreachable(code || error.message);
        if (response.headersSent) response.destroy();
        else
          refuse(
            response,
            502,
            'bad_gateway',
            `the target could not be reached (${code || error.message})`,
          );
        return;
      }
      options.onExchange(
        {
          spec: {
            method: request.method ?? 'GET',
            path: pathAndQuery.slice(basePath.length),
            auth: key === undefined ? 'none' : 'key',
            operationId: 'other',
          },
          url: `${target.origin}${pathAndQuery}`,
          sentAt,
          answeredAt: performance.now(),
          sentAtEpochMs,
          authenticated: false,
          fault: {
            kind: 'connection',
            message: `the target closed the connection without an answer: ${error.message}`,
          },
        },
        id,
      );
      if (response.headersSent) response.destroy();
      else refuse(response, 502, 'bad_gateway', `the target did not answer (${error.message})`);
    });
    request.on('data', (chunk: Buffer) => requestBody.add(chunk));
    request.pipe(upstream);
  };

  const server: Server = createServer((request, response) => {
    const route = routeOf(request);
    if (route === 'report') answerReport(request, response);
    else if (route === 'forward') forward(request, response);
    else {
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
    baseUrl: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}${basePath}`,
    get forwarded() {
      return forwarded;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
