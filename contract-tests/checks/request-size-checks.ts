/**
 * The request sizes gateways limit: a staging stack puts nginx, HAProxy or an API gateway in
 * front of the app, and its own answers to a large body or a long URL (nginx's HTML 413 and 414
 * pages) carry neither an Error body nor the app's X-RateLimit-*. The interface states no length
 * limit, so any status is accepted (the app's 401, a 413, a 414); what it does state is checked:
 * every error has a JSON Error body (Errors) and every response the rate-limit headers (Limits,
 * "present on every response"). The requests carry no key (they draw on no window, and cannot
 * create a pet), and their bodies are no NewPet, so a read-only run sends them too.
 */

import { rateLimitHeaders } from '../contract/interface-facts.ts';
import { checkError } from '../contract/schemas.ts';
import type { RequestSpec } from '../http/exchange.ts';
import { activeCheck, fail, priorities } from './check.ts';
import { expectNoFault } from './expect.ts';
import { createPetRequest } from './requests.ts';

/** Padding of `bytes` characters. */
const padding = (bytes: number) => 'x'.repeat(bytes);

/** A JSON body of about `bytes` that is no NewPet (no name, no categoryId). */
const paddedBody = (bytes: number) => `{"contract-padding":"${padding(bytes)}"}`;

/**
 * The size classes, each past a limit common gateways and frameworks ship with and inside the
 * next: 4 KiB passes nginx `client_max_body_size 1k`-style settings; 256 KiB passes body-parser's
 * default `limit` of 100 kb (express.json) and stays under the 1 MiB of nginx, fastify and
 * koa-bodyparser; a 9 KiB request line passes nginx's default `large_client_header_buffers 4 8k`
 * and stays under Node's 16 KiB header limit.
 */
const sizeClasses: readonly { readonly name: string; readonly spec: () => RequestSpec }[] = [
  { name: 'a 4 KiB body', spec: () => createPetRequest(paddedBody(4 * 1024), 'none') },
  { name: 'a 256 KiB body', spec: () => createPetRequest(paddedBody(256 * 1024), 'none') },
  {
    name: 'a 9 KiB query',
    spec: () => ({
      method: 'GET',
      path: `/pets?limit=20&contract-padding=${padding(9 * 1024)}`,
      auth: 'none',
      operationId: 'listPets',
    }),
  },
];

/** Each size class gets an answer shaped as the interface shapes every answer. */
export const errorsLargeRequests = activeCheck({
  id: 'errors.largeRequests',
  title:
    'requests at the sizes gateways limit (a 4 KiB body, a 256 KiB body, a 9 KiB query) get a JSON Error with X-RateLimit-*, whatever the status',
  source:
    'Errors, "Every error response has a JSON body shaped as Error"; Limits, rate limit headers "present on every response" (no length limit is stated, so any status is accepted)',
  priority: priorities.auth,
  cost: { fixed: sizeClasses.length, perRun: 0, withoutKey: true },
  async run(context) {
    for (const { name, spec } of sizeClasses) {
      const exchange = await context.send(spec());
      const sent = `${name} without a key`;
      const response = expectNoFault(exchange, sent);
      if (response.status < 400)
        fail(`${sent} got ${response.status}: a request without a key is refused (401)`, exchange);
      const problem =
        response.json === undefined ? 'its body is not JSON' : checkError(response.json);
      if (problem !== undefined)
        fail(
          `${sent} got ${response.status} (${response.headers.get('Content-Type') ?? 'no Content-Type'}) that is no Error: ${problem}; body: ${response.preview(120)}`,
          exchange,
        );
      const missing = rateLimitHeaders.filter((header) => response.headers.get(header) === null);
      if (missing.length > 0)
        fail(`${sent} got ${response.status} without ${missing.join(', ')}`, exchange);
    }
  },
});
