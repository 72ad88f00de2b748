/** Builders for the three operations' requests. */
import type { RequestSpec } from '../http/exchange.ts';

/** How a request authenticates (see RequestSpec.auth). */
export type Auth = RequestSpec['auth'];

/** Query of `GET /pets`; values are sent as given (strings allow malformed ones). */
export interface ListQuery {
  readonly limit?: string | number | undefined;
  readonly status?: string | undefined;
}

/** `GET /pets` with a query. */
export function listPetsRequest(query: ListQuery = {}, auth: Auth = 'key'): RequestSpec {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.status !== undefined) params.set('status', query.status);
  const search = params.toString();
  return {
    method: 'GET',
    path: `/pets${search === '' ? '' : `?${search}`}`,
    auth,
    operationId: 'listPets',
  };
}

/** `GET /pets/{petId}`; the id is sent as given, percent-encoded. */
export function getPetRequest(id: string | number | bigint, auth: Auth = 'key'): RequestSpec {
  return {
    method: 'GET',
    path: `/pets/${encodeURIComponent(String(id))}`,
    auth,
    operationId: 'getPet',
  };
}

/** `POST /pets` with raw body text (or none), sent as `contentType` (default JSON). */
export function createPetRequest(
  body: string | undefined,
  auth: Auth = 'key',
  contentType?: string,
): RequestSpec {
  return {
    method: 'POST',
    path: '/pets',
    auth,
    ...(body === undefined ? {} : { body }),
    ...(contentType === undefined ? {} : { contentType }),
    operationId: 'createPet',
  };
}
