/** A server in trouble: every answer is a 5xx, as an Error body or as an HTML error page. */
import { type BadServer, type BadServerOptions, startBadHttpServer } from './bad-server.ts';

/** Options of an error storm. */
export interface ErrorStormOptions extends BadServerOptions {
  readonly status: 500 | 502 | 503;
  /**
   * `true`: a JSON Error body; `false`: an HTML page that, like some debug pages, echoes the
   * request's Authorization header (the harness must not print the key it contains).
   */
  readonly json: boolean;
}

/** Starts a server that answers every request with `status`. */
export function startErrorStorm(options: ErrorStormOptions): Promise<BadServer> {
  return startBadHttpServer((request, response) => {
    if (options.json) {
      response.writeHead(options.status, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({ code: 'internal', message: 'it broke', status: options.status }),
      );
      return;
    }
    response.writeHead(options.status, { 'Content-Type': 'text/html' });
    response.end(`<h1>${options.status}</h1><pre>${request.headers.authorization ?? ''}</pre>`);
  }, options);
}
