/** Single-fault variants of the fake for `GET /pets/{petId}` (getPet). */
import { after, before } from './fault-helpers.ts';
import { rebuild, withHeaders, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Mutants of `GET /pets/{petId}` (getPet). */
export const getPetMutants: readonly Mutant[] = [
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
];
