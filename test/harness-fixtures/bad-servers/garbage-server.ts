/** A server whose 200 answers are malformed: nonsense quota headers, huge headers, or no JSON. */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** Options of a garbage server. */
export interface GarbageServerOptions extends BadServerOptions {
  /**
   * `rate-limit-headers`: X-RateLimit-* that are not numbers (and a Retry-After on a 200);
   * `huge-headers`: 64 KB of headers, past what Node's HTTP client accepts;
   * `not-json`: an HTML body labelled application/json that echoes the Authorization header.
   */
  readonly kind: 'rate-limit-headers' | 'huge-headers' | 'not-json';
}

const quota = () => ({
  'X-RateLimit-Limit': '60',
  'X-RateLimit-Remaining': '59',
  'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
});

/** Starts a garbage server. */
export function startGarbageServer(options: GarbageServerOptions): Promise<BadServer> {
  return startBadHttpServer((request, response) => {
    if (options.kind === 'rate-limit-headers') {
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'X-RateLimit-Limit': 'lots',
        'X-RateLimit-Remaining': '-1',
        'X-RateLimit-Reset': 'tomorrow',
        'Retry-After': 'never',
      });
      response.end('[]');
    } else if (options.kind === 'huge-headers') {
      response.writeHead(200, {
        'Content-Type': 'application/json',
        ...quota(),
        'X-Padding': 'x'.repeat(65_536),
      });
      response.end('[]');
    } else {
      response.writeHead(200, { 'Content-Type': 'application/json', ...quota() });
      response.end(`<html><body>Hello ${request.headers.authorization ?? ''}</body></html>`);
    }
  }, options);
}
