/** Builders for the three operations' requests, marking whether each obeys the document. */
import { int64, pageSize, petStatuses } from '../contract/interface-facts.ts';
import type { RequestSpec } from '../http/exchange.ts';

/** How a request authenticates (see RequestSpec.auth). */
export type Auth = RequestSpec['auth'];

const bearerToken = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;

/** Whether an Authorization choice obeys the document's bearer scheme. */
function authConforms(auth: Auth): boolean {
  if (auth === 'key') return true;
  if (auth === 'none') return false;
  return bearerToken.test(auth.header);
}

/** Query of `GET /pets`; values are sent as given (strings allow malformed ones). */
export interface ListQuery {
  readonly limit?: string | number;
  readonly status?: string;
}

function limitConforms(limit: string | number | undefined): boolean {
  if (limit === undefined) return true;
  const text = String(limit);
  return /^\d+$/.test(text) && Number(text) >= pageSize.min && Number(text) <= pageSize.max;
}

/** `GET /pets` with a query. */
export function listPetsRequest(query: ListQuery = {}, auth: Auth = 'key'): RequestSpec {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.status !== undefined) params.set('status', query.status);
  const search = params.toString();
  const statusOk =
    query.status === undefined || (petStatuses as readonly string[]).includes(query.status);
  return {
    method: 'GET',
    path: `/pets${search === '' ? '' : `?${search}`}`,
    auth,
    conforming: authConforms(auth) && limitConforms(query.limit) && statusOk,
    operationId: 'listPets',
  };
}

/** Whether a path id is an int64 in decimal. */
function isInt64Text(id: string): boolean {
  if (!/^-?\d{1,19}$/.test(id)) return false;
  const value = BigInt(id);
  return value >= int64.min && value <= int64.max;
}

/** `GET /pets/{petId}`; the id is sent as given, percent-encoded. */
export function getPetRequest(id: string | number | bigint, auth: Auth = 'key'): RequestSpec {
  const text = String(id);
  return {
    method: 'GET',
    path: `/pets/${encodeURIComponent(text)}`,
    auth,
    conforming: authConforms(auth) && isInt64Text(text),
    operationId: 'getPet',
  };
}

/** `POST /pets` with raw body text (or none); `valid` says whether the body is a NewPet. */
export function createPetRequest(
  body: string | undefined,
  valid: boolean,
  auth: Auth = 'key',
  contentType?: string,
): RequestSpec {
  return {
    method: 'POST',
    path: '/pets',
    auth,
    ...(body === undefined ? {} : { body }),
    ...(contentType === undefined ? {} : { contentType }),
    conforming: authConforms(auth) && valid && body !== undefined,
    operationId: 'createPet',
  };
}
