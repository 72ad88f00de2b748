/**
 * A staging stack as teams deploy one: a reverse proxy in front of the conforming express app
 * (express-rate-limit-server.ts), answering some requests itself the way nginx does with its
 * documented directives and default error pages. http-proxy 1.18 forwards the rest (README
 * "Setup a stand-alone proxy server with custom server logic": `proxy.web(req, res, { target })`
 * from a node:http server). The gateway's own answers are nginx's default HTML pages
 * (src/http/ngx_http_special_response.c), without the app's X-RateLimit-* and without
 * Retry-After:
 *
 * - `client_max_body_size 1k` (ngx_http_core_module): a body above 1 KiB gets 413;
 * - `large_client_header_buffers 4 8k`, nginx's default: a request line above 8 KiB gets 414
 *   (which the harness never meets: its longest line stays inside RFC 9112's 8,000 octets);
 * - `limit_req zone=perip burst=...` with `limit_req_status 429` (ngx_http_limit_req_module):
 *   a request past the zone's burst from one address gets 429, which nginx sends with no
 *   Retry-After. nginx decides by the rate at that moment, which a test on a loaded machine
 *   cannot choose (a slow run never passed a per-second limit), so this gateway refuses by count:
 *   every `gatewayBurst + 1`-th request from an address, keyed by the address as limit_req's zone
 *   is. The shape of the refusal is what the harness judges, not when it comes.
 */
import { Agent, createServer, type ServerResponse } from 'node:http';
import httpProxy from 'http-proxy';
import { startExpressRateLimitServer } from './express-rate-limit-server.ts';
import { listenOnLoopback, type RealServer } from './real-server.ts';

/** `client_max_body_size 1k`. */
const maxBodyBytes = 1024;
/** nginx's default `large_client_header_buffers 4 8k`: a request line must fit one buffer. */
const maxRequestLineBytes = 8 * 1024;
/** Requests one address gets through between two of the gateway's 429s. */
const gatewayBurst = 30;

/** nginx's default error page for `status` (ngx_http_special_response.c). */
function nginxPage(response: ServerResponse, status: number, reason: string): void {
  const body = `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  response.writeHead(status, { 'Content-Type': 'text/html', Server: 'nginx' });
  response.end(body);
}

/** Starts the app and the gateway in front of it; the base URL is the gateway's. */
export async function startGatewayStackServer(): Promise<RealServer> {
  const app = await startExpressRateLimitServer();
  const target = new URL(app.baseUrl).origin;
  // A new upstream connection per request, as nginx's stock proxy_pass (see gateway-stand-in.ts).
  const proxy = httpProxy.createProxyServer({ agent: new Agent({ keepAlive: false }) });
  const perAddress = new Map<string, number>();
  const gateway = createServer((request, response) => {
    const address = request.socket.remoteAddress ?? '';
    const seen = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, seen);
    if (seen % (gatewayBurst + 1) === 0) {
      request.resume();
      return nginxPage(response, 429, 'Too Many Requests');
    }
    const requestLine = `${request.method} ${request.url} HTTP/1.1`;
    if (Buffer.byteLength(requestLine) > maxRequestLineBytes) {
      request.resume();
      return nginxPage(response, 414, 'Request-URI Too Large');
    }
    if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes) {
      request.resume();
      return nginxPage(response, 413, 'Request Entity Too Large');
    }
    proxy.web(request, response, { target }, () => nginxPage(response, 502, 'Bad Gateway'));
  });
  const listening = await listenOnLoopback(gateway);
  return {
    ...listening,
    close: async () => {
      proxy.close();
      await Promise.all([listening.close(), app.close()]);
    },
  };
}
