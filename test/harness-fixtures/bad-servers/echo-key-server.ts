/**
 * A server that echoes the caller's key back in its error pages, in the forms real servers
 * write it: JSON-escaped (PHP's json_encode writes `/` as `\/`), percent-encoded, base64 (as in
 * a Basic header), and cut so that the key straddles a 200-character preview.
 */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** How the key is echoed. */
type EchoForm = 'json-escaped' | 'percent-encoded' | 'base64' | 'straddling-preview';

/** Options of an echoing server. */
export interface EchoKeyOptions extends BadServerOptions {
  readonly form: EchoForm;
}

function echo(form: EchoForm, key: string): string {
  switch (form) {
    case 'json-escaped':
      return JSON.stringify({ error: `bad token ${key}` }).replaceAll('/', '\\/');
    case 'percent-encoded':
      return `<a href="/login?token=${encodeURIComponent(key)}">retry</a>`;
    case 'base64':
      return `credentials: ${Buffer.from(`user:${key}`).toString('base64')}`;
    case 'straddling-preview':
      // The key starts 12 characters before the harness cuts a preview at 200.
      return `${'-'.repeat(188)}${key} and more`;
  }
}

/** Starts a server that answers 500 with the key echoed in `form`. */
export function startEchoKeyServer(options: EchoKeyOptions): Promise<BadServer> {
  return startBadHttpServer((request, response) => {
    const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    response.writeHead(500, {
      'Content-Type': 'text/plain',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '58',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
      'X-Debug-Token': encodeURIComponent(key),
    });
    response.end(echo(options.form, key));
  }, options);
}
