/**
 * A server that answers every request with an empty page of pets (or an Error) and whatever
 * rate-limit header fields the test chooses per request: the IETF draft's fields instead of
 * X-RateLimit-*, a window that never refills, a 429 its headers did not announce.
 */
import { type BadServer, startBadHttpServer } from './bad-server.ts';

/** How the server answers its `index`-th request (1-based) at `now` (epoch ms). */
export interface QuotaAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Starts a server whose every answer's status and headers come from `answer`; with `key`, a
 * request without `Bearer <key>` gets 401 instead (with the same headers), as the interface says.
 */
export function startQuotaServer(
  answer: (index: number, now: number) => QuotaAnswer,
  key?: string,
): Promise<BadServer> {
  let index = 0;
  return startBadHttpServer((request, response) => {
    index += 1;
    const given = answer(index, Date.now());
    const unauthorised = key !== undefined && request.headers.authorization !== `Bearer ${key}`;
    const { status, headers } = unauthorised ? { ...given, status: 401 } : given;
    response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    response.end(
      status < 400
        ? '[]'
        : JSON.stringify(
            status === 401
              ? { code: 'unauthorized', message: 'Missing or invalid API key', status }
              : { code: 'rate_limited', message: 'Too many requests', status },
          ),
    );
  });
}
