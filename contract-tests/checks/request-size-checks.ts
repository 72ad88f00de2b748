/**
 * The request sizes gateways limit: a staging stack puts nginx, Apache httpd, Caddy or HAProxy
 * in front of the app, and its own answers to a large body or a long URL (nginx's HTML 413 and
 * 414 pages, Caddy's empty 502) carry neither an Error body nor the app's X-RateLimit-*. The
 * interface states no length limit, so any status is accepted (the app's 401, a 413, a 414);
 * what it does state is checked: every error has a JSON Error body (Errors) and every response
 * the rate-limit headers (Limits, "present on every response"). The requests carry no key (they
 * draw on no window, and cannot create a pet), and their bodies are no NewPet, so a read-only
 * run sends them too.
 *
 * Every probe is one HTTP or the interface lets a client demand. The bodies are the size of a
 * create with a long name, which the interface allows ("Length limits ... on `name`: not shown"),
 * so a gateway that refuses them refuses real clients. The request line stays under the 8,000
 * octets RFC 9112 section 3 recommends every server accept (RFC 9110 section 4.1 says the same
 * of URIs): a stock nginx (`large_client_header_buffers 4 8k`) or Apache httpd
 * (`LimitRequestLine 8190`) may refuse anything longer with HTTP's own 414, and no request the
 * interface defines comes near it (its longest URL is about 40 octets). No probe goes past that
 * line, not even one that would only warn: its answer, a gateway's HTML 414, would be judged
 * like every other answer by the every-response checks (errors.bodyShape, responses.json,
 * headers.rateLimitOnEveryResponse), which must see every exchange (the proxy's judges do), so it
 * would fail four checks for a refusal HTTP allows; and a warning that no client of
 * this interface could meet in use is not worth a request.
 */

import { rateLimitHeaders } from '../contract/interface-facts.ts';
import { checkError } from '../contract/schemas.ts';
import type { RequestSpec } from '../http/exchange.ts';
import { activeCheck, fail, priorities } from './check.ts';
import { expectNoFault } from './expect.ts';
import { createPetRequest } from './requests.ts';

/**
 * Octets of the request line the probe sends (`GET <path>?<query> HTTP/1.1`, CRLF not counted).
 * RFC 9112 section 3: "It is RECOMMENDED that all HTTP senders and recipients support, at a
 * minimum, request-line lengths of 8000 octets." 100 octets under it, so a gateway that forwards
 * to a longer upstream path (`proxy_pass http://app/api/`) still hands its upstream a line inside
 * the RFC's figure.
 */
export const requestLineOctets = 7_900;

/** Padding of `bytes` characters. */
const padding = (bytes: number) => 'x'.repeat(bytes);

/** A JSON body of about `bytes` that is no NewPet (no name, no categoryId). */
const paddedBody = (bytes: number) => `{"contract-padding":"${padding(bytes)}"}`;

/** The listing the request-line probe sends, before its padding. */
const listingPath = '/pets?limit=20&contract-padding=';

/**
 * A `GET /pets` whose request line, with the base URL's path in front, is `requestLineOctets`
 * long (the padding is plain ASCII, so characters are octets).
 */
export function longRequestLine(baseUrl: string): RequestSpec {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const fixed = `GET ${basePath}${listingPath} HTTP/1.1`.length;
  return {
    method: 'GET',
    path: `${listingPath}${padding(Math.max(0, requestLineOctets - fixed))}`,
    auth: 'none',
    operationId: 'listPets',
  };
}

/** Where a gateway's setting refuses a body the interface allows. */
const bodyLimits =
  'the interface states no length limit on name, so a create this large is a request it allows; if a gateway in front answered it, raise its body limit (nginx `client_max_body_size`, default 1m; Caddy `request_body max_size`, no default; HAProxy and Apache httpd apply none to proxied bodies by default)';

/** One request a gateway may limit, and the settings to name when its answer is none of ours. */
interface SizeClass {
  readonly name: string;
  readonly spec: (baseUrl: string) => RequestSpec;
  readonly limits: string;
}

/**
 * The size classes: 4 KiB passes nginx `client_max_body_size 1k`-style settings; 256 KiB passes
 * body-parser's default `limit` of 100 kb (express.json) and stays under the 1 MiB of nginx,
 * fastify and koa-bodyparser; the request line passes `large_client_header_buffers 2 1k`-style
 * settings and stays inside every stock gateway's (nginx 8 KiB, Apache httpd 8190 octets,
 * HAProxy's 16 KiB `tune.bufsize`, Go's 1 MiB under Caddy) and Node's 16 KiB header limit.
 */
const sizeClasses: readonly SizeClass[] = [
  {
    name: 'a 4 KiB body',
    spec: () => createPetRequest(paddedBody(4 * 1024), 'none'),
    limits: bodyLimits,
  },
  {
    name: 'a 256 KiB body',
    spec: () => createPetRequest(paddedBody(256 * 1024), 'none'),
    limits: bodyLimits,
  },
  {
    name: `a ${requestLineOctets.toLocaleString('en-US')}-octet request line`,
    spec: longRequestLine,
    limits:
      'RFC 9112 section 3 recommends every server accept request lines of 8,000 octets; if a gateway in front answered it, raise its buffer (nginx `large_client_header_buffers`, default 4 8k; Apache httpd `LimitRequestLine`, default 8190; HAProxy `tune.bufsize`, default 16384)',
  },
];

/** Each size class gets an answer shaped as the interface shapes every answer. */
export const errorsLargeRequests = activeCheck({
  id: 'errors.largeRequests',
  title: `requests of the sizes gateways limit and clients may send (a 4 KiB and a 256 KiB body, a request line of ${requestLineOctets.toLocaleString('en-US')} octets) get a JSON Error with X-RateLimit-*, whatever the status`,
  source:
    'Errors, "Every error response has a JSON body shaped as Error"; Limits, rate limit headers "present on every response" (no length limit is stated, so any status is accepted); RFC 9112 section 3 (request lines of 8,000 octets)',
  priority: priorities.auth,
  cost: { fixed: sizeClasses.length, perRun: 0, withoutKey: true },
  async run(context) {
    for (const { name, spec, limits } of sizeClasses) {
      const exchange = await context.send(spec(context.target.baseUrl));
      const sent = `${name} without a key`;
      const contentType = (status: number, type: string | null) =>
        `${status} (${type ?? 'no Content-Type'})`;
      const early = exchange.response;
      // A gateway past its body limit may answer 5xx (Caddy 2.6 answers 502): name the setting.
      if (early !== undefined && early.status >= 500)
        fail(
          `${sent} got ${contentType(early.status, early.headers.get('Content-Type'))}, a server error; body: ${early.preview(120)}; ${limits}`,
          exchange,
        );
      const response = expectNoFault(exchange, sent);
      if (response.status < 400)
        fail(`${sent} got ${response.status}: a request without a key is refused (401)`, exchange);
      const problem =
        response.json === undefined ? 'its body is not JSON' : checkError(response.json);
      if (problem !== undefined)
        fail(
          `${sent} got ${contentType(response.status, response.headers.get('Content-Type'))} that is no Error: ${problem}; body: ${response.preview(120)}; ${limits}`,
          exchange,
        );
      const missing = rateLimitHeaders.filter((header) => response.headers.get(header) === null);
      if (missing.length > 0)
        fail(`${sent} got ${response.status} without ${missing.join(', ')}`, exchange);
    }
  },
});
