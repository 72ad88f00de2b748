/**
 * A gateway stand-in: a reverse proxy (http-proxy 1.18, README "Setup a stand-alone proxy server
 * with custom server logic": `proxy.web(req, res, { target })` from a node:http server) in front
 * of a conforming server, refusing by size as a real gateway does (gateway-models.ts) with that
 * gateway's own page, and forwarding everything else untouched. It keeps the longest request line
 * it was sent, so a test can show what the harness asked of it. `npm run test:gateways` runs the
 * same cases against the real gateways.
 */
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import httpProxy from 'http-proxy';
import type { GatewayModel, Refusal } from './gateway-models.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** A running stand-in, with what it measured. */
export interface GatewayStandIn extends RealServer {
  /** The longest request line it was sent (CRLF not counted), in octets. */
  longestRequestLine(): number;
}

/**
 * Node's own header limit for the stand-in (its default is 16 KiB): above every model's, so the
 * model alone decides what is refused.
 */
const nodeHeaderLimit = 2 * 1024 * 1024;

/** The request line as it came in, e.g. `GET /v1/pets?limit=20 HTTP/1.1`. */
const requestLineOf = (request: IncomingMessage) =>
  `${request.method} ${request.url} HTTP/${request.httpVersion}`;

/** Octets of the request head: the request line, each field as `name: value`, each with CRLF. */
function headOctets(request: IncomingMessage, requestLine: string): number {
  let octets = Buffer.byteLength(requestLine) + 2;
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2)
    octets +=
      Buffer.byteLength(request.rawHeaders[index] ?? '') +
      Buffer.byteLength(request.rawHeaders[index + 1] ?? '') +
      4;
  return octets + 2;
}

/** The refusal `model` gives `request`, or `undefined` when it forwards it. */
function refusalOf(
  model: GatewayModel,
  request: IncomingMessage,
  requestLine: string,
): Refusal | undefined {
  const { requestLine: line, requestHead: head, body } = model;
  if (line !== undefined && Buffer.byteLength(requestLine) > line.max) return line.refusal;
  if (head !== undefined && headOctets(request, requestLine) > head.max) return head.refusal;
  // The harness sends every body with a Content-Length (fetch with a string body), which nginx,
  // like this stand-in, judges before it reads a byte.
  if (body !== undefined && Number(request.headers['content-length'] ?? 0) > body.max)
    return body.refusal;
  return undefined;
}

/** Sends the gateway's own answer and closes the connection, as each gateway does. */
function refuse(response: ServerResponse, server: string, refusal: Refusal): void {
  response.writeHead(refusal.status, {
    Server: server,
    Connection: 'close',
    ...(refusal.contentType === undefined ? {} : { 'Content-Type': refusal.contentType }),
    'Content-Length': Buffer.byteLength(refusal.body),
  });
  response.end(refusal.body);
}

/**
 * Starts `upstream` and the stand-in in front of it; the base URL is the stand-in's, and closing
 * it closes both.
 * @example const gateway = await startGatewayStandIn(stockNginx, startExpressRateLimitServer);
 */
export async function startGatewayStandIn(
  model: GatewayModel,
  upstream: () => Promise<RealServer>,
): Promise<GatewayStandIn> {
  const app = await upstream();
  const target = new URL(app.baseUrl).origin;
  // A new upstream connection per request, as nginx's stock proxy_pass does (HTTP/1.0 upstream,
  // no `keepalive` in its upstream block): Node's global agent keeps connections alive, and a
  // request sent on one the app's keep-alive time-out is closing meets a reset, which would be
  // this stand-in's 502, not the app's (and HAProxy retries or avoids reusing such connections).
  const proxy = httpProxy.createProxyServer({ agent: new Agent({ keepAlive: false }) });
  let longestRequestLine = 0;
  const gateway = createServer({ maxHeaderSize: nodeHeaderLimit }, (request, response) => {
    const requestLine = requestLineOf(request);
    longestRequestLine = Math.max(longestRequestLine, Buffer.byteLength(requestLine));
    const refusal = refusalOf(model, request, requestLine);
    if (refusal !== undefined) {
      request.resume();
      return refuse(response, model.server, refusal);
    }
    proxy.web(request, response, { target }, () =>
      refuse(response, model.server, { status: 502, body: '' }),
    );
  });
  const listening = await listenOnLoopback(gateway);
  return {
    ...listening,
    longestRequestLine: () => longestRequestLine,
    close: async () => {
      proxy.close();
      await Promise.all([listening.close(), app.close()]);
    },
  };
}
