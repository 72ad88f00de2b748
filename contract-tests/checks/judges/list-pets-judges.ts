/**
 * What the `GET /pets` checks judge, on any listing whoever asked for it: the page's shape (the
 * OpenAPI document's Pets, as Prism's proxy validates it), the page size against `limit` and its
 * default, the status filter, and the answers to a limit or status the interface does not allow.
 * A page counts as evidence only when it could have shown a violation: full (as many pets as
 * asked for), or past it.
 */
import { pageSize } from '../../contract/interface-facts.ts';
import { checkPets } from '../../contract/schemas.ts';
import type { Exchange, ReceivedResponse } from '../../http/exchange.ts';
import type { StatelessJudge } from '../check.ts';
import { shapeProblem, statusProblem } from '../expect.ts';
import { queryOf, requestLine, type SeenQuery } from './seen-request.ts';

/** The rows of a 200 listing, when its body is a JSON array. */
function rowsOf(
  response: ReceivedResponse | undefined,
): readonly { status?: unknown }[] | undefined {
  return response?.status === 200 && Array.isArray(response.json) ? response.json : undefined;
}

/** The query and rows of a 200 listing whose query the interface allows (limit 1..100, a PetStatus). */
function allowedListing(
  exchange: Exchange,
): { query: SeenQuery; rows: readonly { status?: unknown }[] } | undefined {
  const query = queryOf(exchange);
  const rows = rowsOf(exchange.response);
  if (query === undefined || rows === undefined) return undefined;
  if (query.limit !== undefined && query.limitInRange === undefined) return undefined;
  if (query.status !== undefined && query.knownStatus === undefined) return undefined;
  return { query, rows };
}

/** Which of the query's parameters a message names: `status=sold&limit=3`, or `GET /pets`. */
function asked(query: SeenQuery): string {
  return query.label === '' ? 'GET /pets' : query.label;
}

/** GET /pets, 200 Pets: the body is a JSON array of Pet. */
export const listPetsShapeJudge: StatelessJudge = {
  appliesTo: (exchange) => queryOf(exchange) !== undefined && exchange.response?.status === 200,
  judge: (exchange) =>
    shapeProblem(exchange.response as ReceivedResponse, checkPets, requestLine(exchange)),
  unseen: 'no GET /pets was answered 200',
};

/** Rule 1: without limit, at most 20 pets. */
export const defaultLimitJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const listing = allowedListing(exchange);
    return (
      listing !== undefined &&
      listing.query.limit === undefined &&
      listing.rows.length >= pageSize.default
    );
  },
  judge: (exchange) => {
    const { query, rows } = allowedListing(exchange) as NonNullable<
      ReturnType<typeof allowedListing>
    >;
    return rows.length > pageSize.default
      ? `${query.label === '' ? 'GET /pets' : `GET /pets?${query.label}`} without limit returned ${rows.length} pets, more than ${pageSize.default}`
      : undefined;
  },
  unseen: `no GET /pets without limit got a full page (${pageSize.default} pets or more)`,
};

/** `limit` from 1 to 100 caps the page. */
export const limitJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const listing = allowedListing(exchange);
    const limit = listing?.query.limitInRange;
    return limit !== undefined && (listing?.rows.length ?? 0) >= limit;
  },
  judge: (exchange) => {
    const { query, rows } = allowedListing(exchange) as NonNullable<
      ReturnType<typeof allowedListing>
    >;
    const limit = query.limitInRange ?? 0;
    return rows.length > limit ? `${asked(query)} returned ${rows.length} pets` : undefined;
  },
  unseen: 'no GET /pets with a limit from 1 to 100 got a full page (as many pets as the limit)',
};

/** Rule 2: only pets with the given status. */
export const statusFilterJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const listing = allowedListing(exchange);
    return (
      listing !== undefined && listing.query.knownStatus !== undefined && listing.rows.length > 0
    );
  },
  judge: (exchange) => {
    const { query, rows } = allowedListing(exchange) as NonNullable<
      ReturnType<typeof allowedListing>
    >;
    const other = rows.find((row) => row.status !== query.knownStatus);
    return other === undefined
      ? undefined
      : `${asked(query)} returned a pet with status ${JSON.stringify(other.status)}`;
  },
  unseen: 'no GET /pets with a status filter listed a pet',
};

/** A limit outside 1..100: no server error, and never a page above 100. */
export const limitOutOfRangeJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const query = queryOf(exchange);
    const response = exchange.response;
    if (query?.limit === undefined || query.limitInRange !== undefined || response === undefined)
      return false;
    // Evidence, as the active check takes it: a refusal, or a page that reached 100.
    return response.status >= 400 || (rowsOf(response)?.length ?? 0) >= pageSize.max;
  },
  judge: (exchange) => {
    const response = exchange.response as ReceivedResponse;
    const sent = requestLine(exchange);
    const rows = rowsOf(response);
    if (rows !== undefined && rows.length > pageSize.max)
      return `${sent} returned ${rows.length} pets, more than ${pageSize.max}`;
    return statusProblem(response, (status) => status < 500, sent);
  },
  unseen: `no GET /pets with a limit outside 1..${pageSize.max} was refused or answered a full page`,
};

/** A status that is not a PetStatus: no server error, and a page, if any, of Pets. */
export const unknownStatusJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const query = queryOf(exchange);
    return (
      query?.status !== undefined &&
      query.knownStatus === undefined &&
      exchange.response !== undefined
    );
  },
  judge: (exchange) => {
    const response = exchange.response as ReceivedResponse;
    const sent = requestLine(exchange);
    if (response.status >= 200 && response.status < 300)
      return shapeProblem(response, checkPets, sent);
    return statusProblem(response, (status) => status < 500, sent);
  },
  unseen: 'no GET /pets with a status that is not a PetStatus was seen',
};
