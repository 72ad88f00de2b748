/**
 * Stand-ins for what answers at a base URL that is not a Pet Store's: a server that answers every
 * request 400 text/plain, and a stub of the interface whose paths lack the version prefix (the
 * interface's `{base_url}` includes `/v1`; a stub made from the document's paths alone serves
 * `/pets`), which answers a path it does not serve as Specmatic's stub does: 400 text/plain, "No
 * matching REST stub for ...". Behind the stub is the conforming fake, so the base URL without
 * `/v1` is a Pet Store.
 */
import { type BadServer, forwardTo, startBadHttpServer } from './bad-server.ts';

/** Starts a server that answers every request `400 text/plain`. */
export function startPlain400Server(): Promise<BadServer> {
  return startBadHttpServer((request, response) => {
    request.resume();
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad Request');
  });
}

/**
 * Starts the stub in front of `target` (the fake's base URL, ending in /v1): `/pets...` reach the
 * fake's `/v1/pets...`; every other path gets the stub's 400. Its `baseUrl` ends in /v1, the
 * address a user who read the interface gives; the stub serves the origin without it.
 */
export function startUnversionedStub(target: string): Promise<BadServer> {
  const upstream = new URL(target);
  return startBadHttpServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/pets' || path.startsWith('/pets/') || path.startsWith('/pets?')) {
      request.url = `${upstream.pathname}${path}`;
      forwardTo(upstream, request, response, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      return;
    }
    request.resume();
    response
      .writeHead(400, { 'Content-Type': 'text/plain' })
      .end(`No matching REST stub for ${request.method ?? 'GET'} ${path}`);
  });
}
