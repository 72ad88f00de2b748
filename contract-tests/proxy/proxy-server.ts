/**
 * `petstore-contract proxy`: a forwarding proxy in front of a Pet Store server. Every request is
 * forwarded unchanged (streamed both ways, upstream connections kept alive, the client's key
 * passed through) and every exchange is shown to the harness's observers; the proxy sends no
 * request of its own. `GET /__contract/report` answers the verdicts so far.
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

/** Options of a proxy. */
export interface ProxyOptions {
  /** The server's base URL, ending in `/v1`. */
  readonly target: string;
  readonly port: number;
  readonly host: string;
  /** Most bytes of a body kept for judging; the rest is forwarded but not judged. */
  readonly maxBodyBytes: number;
  /** Shown each exchange the observers can judge, with the client's key id. */
  readonly onExchange: (exchange: Exchange, keyId: string | undefined) => void;
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
    // Only exchanges under the base path are judged; the rest are forwarded and forgotten.
    const judged = pathAndQuery.startsWith(basePath);
    const cap = judged ? options.maxBodyBytes : 0;
    const requestBody = capture(cap);
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
          response.end();
          if (!judged) return;
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
    upstream.on('error', (error) => {
      if (judged)
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
              message: `the proxy could not reach the target: ${error.message}`,
            },
          },
          id,
        );
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(502, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          code: 'bad_gateway',
          message: `petstore-contract proxy: the target did not answer (${error.message})`,
          status: 502,
        }),
      );
    });
    request.on('data', (chunk: Buffer) => requestBody.add(chunk));
    request.pipe(upstream);
  };

  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/__contract/report')
      answerReport(request, response);
    else forward(request, response);
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
