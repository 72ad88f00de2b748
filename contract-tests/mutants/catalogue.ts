/**
 * The single-fault variants of the fake the harness must catch, one per rule. Each wraps the
 * real fake (see intercept.ts); none is a branch inside mock/.
 */
import type { Fake } from '../../mock/fake.ts';
import { parseExact, toJsonText } from '../http/exact-json.ts';
import { type Intercepted, intercept, rebuild, withHeaders, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** A key whose window is small enough to spend in a test: 8 requests a minute. */
export const smallWindowKey = 'small-window-test-key';

/** Fake options with `smallWindowKey` on an 8-per-minute plan, beside the demo keys. */
export const smallWindowFake = {
  keys: {
    plans: { free: { perMinute: 60, perDay: 1000 }, small: { perMinute: 8, perDay: 1000 } },
    keys: [{ id: 'small', key: smallWindowKey, plan: 'small' }],
  },
};

type Fault = (response: Response, call: Intercepted) => Response | Promise<Response>;

/** Forwards every request, then lets `fault` rewrite the answer. */
const after = (fault: Fault) => (fake: Fake) =>
  intercept(fake, async (call) => fault(await call.forward(), call));

/** Forwards `operation` requests to the fake after `change` rewrites them; others unchanged. */
const before =
  (
    operation: Intercepted['operation'],
    change: (call: Intercepted) => Request | Response | Promise<Request | Response>,
  ) =>
  (fake: Fake) =>
    intercept(fake, async (call) => {
      if (call.operation !== operation) return call.forward();
      const next = await change(call);
      return next instanceof Response ? next : call.forward(next);
    });

const withQuery = (call: Intercepted, edit: (query: URLSearchParams) => void): Request => {
  const url = new URL(call.url);
  edit(url.searchParams);
  return rebuild(call.request, { url, body: null });
};

const withBody = (call: Intercepted, edit: (body: Record<string, unknown>) => void): Request => {
  // Exact parsing: the fault must not also round int64 values on the way through.
  const body = safeParse(call.body);
  if (body === undefined) return rebuild(call.request, { body: call.body });
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    edit(body as Record<string, unknown>);
  return rebuild(call.request, { body: toJsonText(body) });
};

const withAuth = (call: Intercepted, value: string): Request => {
  const headers = new Headers(call.request.headers);
  headers.set('Authorization', value);
  return rebuild(call.request, { headers, body: call.request.method === 'GET' ? null : call.body });
};

const isError = (response: Response) => response.status >= 400;
let fabricatedId = 900_000;

/** Every mutant, in the order of the interface. */
export const mutants: readonly Mutant[] = [
  mutant({
    name: 'default-limit-25',
    fault: 'GET /pets without limit returns up to 25 pets',
    expect: 'listPets.defaultLimit',
    wrap: before('listPets', (call) =>
      withQuery(call, (query) => {
        if (!query.has('limit')) query.set('limit', '25');
      }),
    ),
  }),
  mutant({
    name: 'limit-ignored',
    fault: 'GET /pets ignores limit (always the default page)',
    expect: 'listPets.limitRespected',
    wrap: before('listPets', (call) => withQuery(call, (query) => query.delete('limit'))),
  }),
  mutant({
    name: 'limit-above-100-honoured',
    fault: 'GET /pets?limit=150 returns 150 pets',
    expect: 'listPets.limitOutOfRange',
    wrap: before('listPets', async (call) => {
      const limit = Number(call.url.searchParams.get('limit'));
      if (!(limit > 100)) return call.request;
      const forwarded = await call.forward(withQuery(call, (query) => query.set('limit', '100')));
      if (forwarded.status !== 200) return forwarded;
      return withJson(forwarded, () => call.fake.control.snapshot().pets.slice(0, limit));
    }),
  }),
  mutant({
    name: 'status-filter-ignored',
    fault: 'GET /pets ignores the status filter',
    expect: 'listPets.statusFilter',
    wrap: before('listPets', (call) => withQuery(call, (query) => query.delete('status'))),
  }),
  mutant({
    name: 'status-filter-swapped',
    fault: 'GET /pets?status=sold returns pending pets',
    expect: 'listPets.statusFilter',
    wrap: before('listPets', (call) =>
      withQuery(call, (query) => {
        if (query.get('status') === 'sold') query.set('status', 'pending');
      }),
    ),
  }),
  mutant({
    name: 'listed-pet-without-category',
    fault: 'GET /pets drops categoryId from every pet',
    expect: 'listPets.responseShape',
    wrap: after(async (response, call) =>
      call.operation === 'listPets' && response.status === 200
        ? withJson(response, (pets) =>
            (pets as Record<string, unknown>[]).map(({ categoryId: _, ...pet }) => pet),
          )
        : response,
    ),
  }),
  mutant({
    name: 'pet-id-as-string',
    fault: 'GET /pets/{petId} returns the id as a string',
    expect: 'getPet.responseShape',
    wrap: after(async (response, call) =>
      call.operation === 'getPet' && response.status === 200
        ? withJson(response, (pet) => ({
            ...(pet as object),
            id: String((pet as { id: number }).id),
          }))
        : response,
    ),
  }),
  mutant({
    name: 'get-returns-other-name',
    fault: 'GET /pets/{petId} returns the pet with a changed name',
    expect: 'getPet.found',
    wrap: after(async (response, call) =>
      call.operation === 'getPet' && response.status === 200
        ? withJson(response, (pet) => ({
            ...(pet as object),
            name: `${(pet as { name: string }).name}!`,
          }))
        : response,
    ),
  }),
  mutant({
    name: 'unknown-id-200',
    fault: 'GET /pets/{petId} answers 200 with pet 1 for an unknown id',
    expect: 'getPet.notFound',
    wrap: after(async (response, call) => {
      if (
        call.operation !== 'getPet' ||
        response.status !== 404 ||
        !/^\d+$/.test(call.url.pathname.split('/').pop() ?? '')
      )
        return response;
      const first = await call.forward(
        rebuild(call.request, { url: new URL('/v1/pets/1', call.url), body: null }),
      );
      return first;
    }),
  }),
  mutant({
    name: 'unknown-id-400',
    fault: 'GET /pets/{petId} answers 400 instead of 404 for an unknown id',
    expect: 'getPet.notFound',
    wrap: after(async (response, call) =>
      call.operation === 'getPet' && response.status === 404
        ? withJson(response, (body) => ({ ...(body as object), status: 400 }), 400)
        : response,
    ),
  }),
  mutant({
    name: 'malformed-id-200',
    fault: 'GET /pets/abc answers 200 with pet 1',
    expect: 'getPet.malformedId',
    wrap: before('getPet', (call) =>
      /^-?\d+$/.test(call.url.pathname.split('/').pop() ?? '')
        ? call.request
        : rebuild(call.request, { url: new URL('/v1/pets/1', call.url), body: null }),
    ),
  }),
  mutant({
    name: 'sunset-wrong-date',
    fault: 'GET /pets/{petId} announces a Sunset of 5 December 2029',
    expect: 'getPet.sunsetDate',
    wrap: after((response, call) =>
      call.operation === 'getPet'
        ? withHeaders(response, (headers) => headers.set('Sunset', 'Wed, 05 Dec 2029 00:00:00 GMT'))
        : response,
    ),
  }),
  mutant({
    name: 'deprecation-header-missing',
    fault: 'GET /pets/{petId} drops the Deprecation header',
    expect: 'getPet.deprecationHeader',
    advisory: true,
    wrap: after((response, call) =>
      call.operation === 'getPet'
        ? withHeaders(response, (headers) => headers.delete('Deprecation'))
        : response,
    ),
  }),
  mutant({
    name: 'create-answers-200',
    fault: 'POST /pets answers 200 instead of 201',
    expect: 'createPet.created',
    wrap: after((response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withHeaders(response, () => {}, 200)
        : response,
    ),
  }),
  mutant({
    name: 'create-without-id',
    fault: 'POST /pets answers without the assigned id',
    expect: 'createPet.created',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withJson(response, (pet) => {
            const { id: _, ...rest } = pet as Record<string, unknown>;
            return rest;
          })
        : response,
    ),
  }),
  mutant({
    name: 'created-pet-not-stored',
    fault: 'POST /pets answers 201 but stores nothing',
    expect: 'createPet.roundTrip',
    wrap: before('createPet', async (call) => {
      const probe = await call.forward(
        rebuild(call.request, { body: JSON.stringify({ name: 'probe' }) }),
      );
      if (probe.status === 401) return probe;
      const body = safeParse(call.body) as Record<string, unknown> | undefined;
      if (typeof body?.name !== 'string' || typeof body.categoryId !== 'bigint')
        return call.forward();
      fabricatedId += 1;
      const headers = new Headers(probe.headers);
      return new Response(toJsonText({ status: 'available', ...body, id: fabricatedId }), {
        status: 201,
        headers,
      });
    }),
  }),
  mutant({
    name: 'long-names-truncated',
    fault: 'POST /pets stores names cut to 64 characters',
    expect: 'createPet.nameEdgeCases',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (typeof body.name === 'string') body.name = body.name.slice(0, 64);
      }),
    ),
  }),
  mutant({
    name: 'category-id-rounded',
    fault: 'POST /pets rounds categoryId to a double (loses int64 digits past 2^53)',
    expect: 'createPet.int64CategoryId',
    wrap: before('createPet', (call) => {
      let rounded: string | undefined;
      try {
        rounded = JSON.stringify(JSON.parse(call.body));
      } catch {
        rounded = undefined;
      }
      return rebuild(call.request, { body: rounded ?? call.body });
    }),
  }),
  mutant({
    name: 'missing-name-accepted',
    fault: 'POST /pets without name stores a pet named "unnamed"',
    expect: 'createPet.requiredFields',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!('name' in body)) body.name = 'unnamed';
      }),
    ),
  }),
  mutant({
    name: 'missing-category-accepted',
    fault: 'POST /pets without categoryId stores categoryId 0',
    expect: 'createPet.requiredFields',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!('categoryId' in body)) body.categoryId = 0;
      }),
    ),
  }),
  mutant({
    name: 'string-category-coerced',
    fault: 'POST /pets accepts categoryId "5" as 5',
    expect: 'createPet.invalidValues',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (typeof body.categoryId === 'string' && /^\d+$/.test(body.categoryId))
          body.categoryId = BigInt(body.categoryId);
      }),
    ),
  }),
  mutant({
    name: 'unknown-status-accepted',
    fault: 'POST /pets drops an unknown status instead of refusing it',
    expect: 'createPet.invalidValues',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!['available', 'pending', 'sold', undefined].includes(body.status as string))
          delete body.status;
      }),
    ),
  }),
  mutant({
    name: 'invalid-body-422',
    fault: 'POST /pets answers 422 instead of 400',
    expect: 'createPet.requiredFields',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 400
        ? withJson(response, (body) => ({ ...(body as object), status: 422 }), 422)
        : response,
    ),
  }),
  mutant({
    name: 'refused-create-stored',
    fault: 'POST /pets answers 400 for a body without categoryId but stores the pet anyway',
    expect: 'createPet.refusedLeavesNoPet',
    wrap: after(async (response, call) => {
      if (call.operation !== 'createPet' || response.status !== 400) return response;
      const body = safeParse(call.body) as Record<string, unknown> | undefined;
      if (typeof body?.name === 'string') {
        await call.forward(
          rebuild(call.request, { body: toJsonText({ name: body.name, categoryId: 1 }) }),
        );
      }
      return response;
    }),
  }),
  mutant({
    name: 'duplicate-ids',
    fault: 'POST /pets answers with id 1, which an existing pet has',
    expect: 'createPet.uniqueIds',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withJson(response, (pet) => ({ ...(pet as object), id: 1 }))
        : response,
    ),
  }),
  mutant({
    name: 'missing-key-accepted',
    fault: 'a request without Authorization is served as if it had a valid key',
    expect: 'auth.missingKey',
    wrap: (fake) =>
      intercept(fake, (call) =>
        call.request.headers.has('Authorization')
          ? call.forward()
          : call.forward(withAuth(call, 'Bearer enterprise-demo-key')),
      ),
  }),
  mutant({
    name: 'unknown-key-accepted',
    fault: 'a well-formed but unknown bearer token is accepted',
    expect: 'auth.unknownKey',
    wrap: (fake) =>
      intercept(fake, async (call) => {
        const response = await call.forward();
        const header = call.request.headers.get('Authorization') ?? '';
        return response.status === 401 && /^Bearer [\w.~+/-]+=*$/.test(header)
          ? call.forward(withAuth(call, 'Bearer enterprise-demo-key'))
          : response;
      }),
  }),
  mutant({
    name: 'basic-scheme-accepted',
    fault: 'a key sent as "Basic <key>" or without a scheme is accepted',
    expect: 'auth.malformedHeader',
    wrap: (fake) =>
      intercept(fake, (call) => {
        const header = call.request.headers.get('Authorization');
        const token = header?.replace(/^(Basic|Token) /, '');
        return token !== undefined && token !== header && !token.includes(' ')
          ? call.forward(withAuth(call, `Bearer ${token}`))
          : header !== null && /^[\w.~+/-]+$/.test(header)
            ? call.forward(withAuth(call, `Bearer ${header}`))
            : call.forward();
      }),
  }),
  mutant({
    name: 'unauthorised-403',
    fault: 'a request without a key gets 403 instead of 401',
    expect: 'auth.missingKey',
    wrap: after(async (response) =>
      response.status === 401
        ? withJson(response, (body) => ({ ...(body as object), status: 403 }), 403)
        : response,
    ),
  }),
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
    expect: 'headers.rateLimitValues',
    wrap: after((response) =>
      withHeaders(response, (headers) =>
        headers.set('X-RateLimit-Reset', `${headers.get('X-RateLimit-Reset')}000`),
      ),
    ),
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
  mutant({
    name: 'retry-after-missing',
    fault: '429 answers carry no Retry-After',
    expect: 'rateLimit.retryAfterOn429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after((response) =>
      response.status === 429
        ? withHeaders(response, (headers) => headers.delete('Retry-After'))
        : response,
    ),
  }),
  mutant({
    name: 'retry-after-garbage',
    fault: 'Retry-After says "soon"',
    expect: 'rateLimit.retryAfterOn429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after((response) =>
      response.status === 429
        ? withHeaders(response, (headers) => headers.set('Retry-After', 'soon'))
        : response,
    ),
  }),
  mutant({
    name: 'limit-not-enforced',
    fault: 'requests past the limit are served (200) instead of 429',
    expect: 'rateLimit.exceededGives429',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: after(async (response) =>
      response.status === 429
        ? withJson(
            withHeaders(response, (headers) => headers.delete('Retry-After')),
            () => [],
            200,
          )
        : response,
    ),
  }),
  mutant({
    name: 'banned-despite-honouring',
    fault: 'after one 429 the key stays refused even when Retry-After is honoured',
    expect: 'rateLimit.servedAfterRetryAfter',
    rateLimits: true,
    fake: smallWindowFake,
    wrap: (fake) => {
      let refused = false;
      return intercept(fake, async (call) => {
        const response = await call.forward();
        if (response.status === 429) refused = true;
        if (!refused || response.status === 401) return response;
        return new Response(
          JSON.stringify({ code: 'temporarily_banned', message: 'banned', status: 429 }),
          {
            status: 429,
            headers: withHeaders(response, (headers) => headers.set('Retry-After', '30')).headers,
          },
        );
      });
    },
  }),
];

function safeParse(text: string): unknown {
  try {
    return parseExact(text);
  } catch {
    return undefined;
  }
}

function plainTextHeaders(source: Headers): Headers {
  const headers = new Headers(source);
  headers.set('Content-Type', 'text/plain');
  return headers;
}
