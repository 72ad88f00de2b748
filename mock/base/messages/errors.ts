/**
 * Every error the fake can answer with, in one table. The interface fixes the body shape
 * (`{code, message, status}`) but not the codes: these are ours, and the README lists them.
 */
import type { ErrorBody } from '../contract/types.ts';

/** Code → status and default message of every error the fake sends. */
export const errorTemplates = {
  bad_request: { status: 400, message: 'The HTTP request could not be parsed.' },
  invalid_query: { status: 400, message: 'A query parameter is malformed or out of range.' },
  invalid_content_type: {
    status: 400,
    message: 'The request body must be application/json (UTF-8).',
  },
  missing_body: { status: 400, message: 'The request body is required.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_body: { status: 400, message: 'The request body is not a valid NewPet.' },
  unauthorized: { status: 401, message: 'Missing or invalid API key.' },
  invalid_id: {
    status: 400,
    message: 'The pet id is not an int64 (only with malformedIdStatus 400).',
  },
  not_found: { status: 404, message: 'The requested resource could not be found.' },
  endpoint_removed: { status: 404, message: 'This endpoint has been removed.' },
  route_not_found: { status: 404, message: 'No such endpoint.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this endpoint.' },
  host_not_allowed: {
    status: 403,
    message: 'This Host is not one the fake answers to (see --allowed-hosts).',
  },
  cross_site_request: {
    status: 403,
    message: 'The control surface refuses requests from other sites.',
  },
  control_forbidden: { status: 403, message: 'The control surface is locked.' },
  invalid_control_request: { status: 400, message: 'The control request is not valid.' },
  control_not_found: { status: 404, message: 'No such control route or key.' },
  control_conflict: { status: 409, message: 'That id or key is already in use.' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  expectation_failed: {
    status: 417,
    message: 'The Expect header is not supported (only 100-continue is).',
  },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  uri_too_long: { status: 414, message: 'The request URL is too long.' },
  request_header_too_large: { status: 431, message: 'The request headers are too large.' },
  rate_limited: { status: 429, message: 'Rate limit exceeded.' },
  temporarily_banned: {
    status: 429,
    message: 'API key temporarily banned for ignoring Retry-After.',
  },
  store_full: {
    status: 507,
    message: 'The fake holds as many pets as it is allowed to (maxPets).',
  },
  insufficient_storage: {
    status: 507,
    message: 'The state file is full; the pet was not created.',
  },
  storage_failed: {
    status: 500,
    message: 'The state file could not be written; the pet was not created.',
  },
  store_unavailable: {
    status: 503,
    message: 'The store this replica shares with the others cannot be reached; nothing changed.',
  },
  internal_error: { status: 500, message: 'The fake failed to handle the request.' },
  bad_gateway: { status: 502, message: 'Bad gateway (forced).' },
  service_unavailable: { status: 503, message: 'Service unavailable (forced).' },
  gateway_timeout: { status: 504, message: 'Gateway timeout (forced).' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A machine-readable error code the fake uses. */
export type ErrorCode = keyof typeof errorTemplates;

/** Builds an `Error` body for a code, with an optional more specific message. */
export function errorBody(code: ErrorCode, message?: string): ErrorBody {
  const template = errorTemplates[code];
  return { code, message: message ?? template.message, status: template.status };
}
