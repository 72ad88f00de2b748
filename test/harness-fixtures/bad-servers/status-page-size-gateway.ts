/**
 * A gateway in front of a conforming server that drops `limit` from a listing filtered by
 * `status` (a cache keyed on the filter alone, say): such a listing gets the default page of 20
 * whatever limit was asked. Its one fault is the page size (GET /pets, query limit), and only a
 * request that also filters by status shows it, which is what listPets.statusFilter sends.
 */
import { type BadServer, forwardTo, startBadHttpServer } from './bad-server.ts';

/**
 * Starts the gateway in front of `target` (a base URL ending in /v1); its own base URL ends in
 * /v1 too, on another port.
 */
export function startStatusPageSizeGateway(target: string): Promise<BadServer> {
  const upstream = new URL(target);
  return startBadHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', upstream);
    if (url.pathname.endsWith('/pets') && url.searchParams.has('status')) {
      url.searchParams.delete('limit');
      request.url = `${url.pathname}${url.search}`;
    }
    forwardTo(upstream, request, response, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
  });
}
