/** Single-fault variants of the fake for every response: error bodies, JSON, rate-limit headers, server faults. */
import { after, isError } from './fault-helpers.ts';
import { withHeaders, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

function plainTextHeaders(source: Headers): Headers {
  const headers = new Headers(source);
  headers.set('Content-Type', 'text/plain');
  return headers;
}

/** Mutants of every response: error bodies, JSON, rate-limit headers, server faults. */
export const responseMutants: readonly Mutant[] = [
  mutant({
    name: 'error-without-code',
    fault: 'error bodies lack the code field',
    expect: 'errors.bodyShape',
    wrap: after(async (response) =>
      isError(response)
        ? withJson(response, (body) => {
            const { code: _, ...rest } = body as Record<string, unknown>;
            return rest;
          })
        : response,
    ),
  }),
  mutant({
    name: 'error-status-mismatch',
    fault: 'error bodies always say status 400',
    expect: 'errors.statusMatches',
    wrap: after(async (response) =>
      isError(response)
        ? withJson(response, (body) => ({ ...(body as object), status: 400 }))
        : response,
    ),
  }),
  mutant({
    name: 'error-as-plain-text',
    fault: '404 answers are plain text',
    expect: 'errors.bodyShape',
    wrap: after((response) =>
      response.status === 404
        ? new Response('Not Found', { status: 404, headers: plainTextHeaders(response.headers) })
        : response,
    ),
  }),
  mutant({
    name: 'list-as-text-plain',
    fault: 'GET /pets labels its JSON text/plain',
    expect: 'responses.json',
    wrap: after((response, call) =>
      call.operation === 'listPets'
        ? withHeaders(response, (headers) => headers.set('Content-Type', 'text/plain'))
        : response,
    ),
  }),
  mutant({
    name: 'get-body-not-json',
    fault: 'GET /pets/{petId} answers 200 with a body that is not JSON',
    expect: 'responses.json',
    wrap: after(async (response, call) =>
      call.operation === 'getPet' && response.status === 200
        ? new Response(`${await response.text()}}`, { status: 200, headers: response.headers })
        : response,
    ),
  }),
  mutant({
    name: 'rate-limit-header-dropped',
    fault: 'X-RateLimit-Limit is missing from every answer',
    expect: 'headers.rateLimitOnEveryResponse',
    wrap: after((response) =>
      withHeaders(response, (headers) => headers.delete('X-RateLimit-Limit')),
    ),
  }),
  mutant({
    name: 'rate-limit-headers-missing-on-errors',
    fault: 'error answers carry no X-RateLimit-* headers',
    expect: 'headers.rateLimitOnEveryResponse',
    wrap: after((response) =>
      isError(response)
        ? withHeaders(response, (headers) => {
            for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
              headers.delete(name);
          })
        : response,
    ),
  }),
  mutant({
    name: 'rate-limit-reset-in-ms',
    fault: 'X-RateLimit-Reset is in milliseconds',
    expect: 'headers.rateLimitResetIsTime',
    wrap: after((response) =>
      withHeaders(response, (headers) =>
        headers.set('X-RateLimit-Reset', `${headers.get('X-RateLimit-Reset')}000`),
      ),
    ),
  }),
  mutant({
    name: 'rate-limit-reset-as-delay',
    fault: 'X-RateLimit-Reset gives the seconds until the reset, not the Unix time',
    expect: 'headers.rateLimitResetIsTime',
    wrap: (fake) =>
      after((response) =>
        withHeaders(response, (headers) => {
          const reset = Number(headers.get('X-RateLimit-Reset'));
          const now = Math.floor(fake.control.now() / 1000);
          headers.set('X-RateLimit-Reset', String(Math.max(0, reset - now)));
        }),
      )(fake),
  }),
  mutant({
    name: 'rate-limit-remaining-above-limit',
    fault: 'X-RateLimit-Remaining is larger than X-RateLimit-Limit',
    expect: 'headers.rateLimitValues',
    wrap: after((response) =>
      withHeaders(response, (headers) =>
        headers.set('X-RateLimit-Remaining', String(Number(headers.get('X-RateLimit-Limit')) + 5)),
      ),
    ),
  }),
  mutant({
    name: 'free-limit-misreported',
    fault: 'X-RateLimit-Limit says 100 to a Free key (its plan allows 60 a minute, 1000 a day)',
    expect: 'rateLimit.planLimits',
    runAs: { apiKey: 'free-demo-key', plan: 'free' },
    wrap: after((response) =>
      response.headers.get('X-RateLimit-Limit') === '60'
        ? withHeaders(response, (headers) => headers.set('X-RateLimit-Limit', '100'))
        : response,
    ),
  }),
  mutant({
    name: 'rate-limit-remaining-frozen',
    fault: 'X-RateLimit-Remaining never goes down',
    expect: 'rateLimit.remainingDecreases',
    wrap: after((response) =>
      withHeaders(response, (headers) =>
        headers.set('X-RateLimit-Remaining', String(Number(headers.get('X-RateLimit-Limit')) - 1)),
      ),
    ),
  }),
  mutant({
    name: 'server-error-on-pending',
    fault: 'GET /pets?status=pending answers 500',
    expect: 'server.no5xx',
    wrap: after((response, call) =>
      call.operation === 'listPets' && call.url.searchParams.get('status') === 'pending'
        ? new Response(JSON.stringify({ code: 'internal_error', message: 'boom', status: 500 }), {
            status: 500,
            headers: response.headers,
          })
        : response,
    ),
  }),
  mutant({
    name: 'connection-reset-on-unknown-id',
    fault: 'GET /pets/{petId} of an unknown id drops the connection',
    expect: 'server.noFaults',
    wrap: after((response, call) =>
      call.operation === 'getPet' && response.status === 404 ? Response.error() : response,
    ),
  }),
];
