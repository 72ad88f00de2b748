/**
 * `GET /pets` (listPets): at most `limit` pets (default 20, 1 to 100), filtered by `status`, in
 * the configured order (newest first unless `listOrder` says otherwise: config/list-order.ts).
 * The interface gives no error for bad query values; the fake answers 400 `invalid_query` rather
 * than guess, so a client bug shows up at once (docs/fake.md: "Choices the fake makes").
 */
import { listLimits, petStatuses } from '../../base/contract/schemas.ts';
import type { PetStatus } from '../../base/contract/types.ts';
import { createFrozenJsonAnswers, errorAnswer } from '../../base/messages/answer.ts';
import type { Handler } from '../../pipeline/pipeline.ts';
import { type RouteOptions, requestStoreSlot } from './route.ts';

/** The parsed query of listPets, or a message saying what is wrong with it. */
export type ListQuery = { limit: number; status: PetStatus | undefined } | { error: string };

/** Parses listPets' query: `limit` as a plain decimal integer in range, `status` as a PetStatus. */
export function parseListQuery(query: URLSearchParams): ListQuery {
  const limits = query.getAll('limit');
  const statuses = query.getAll('status');
  if (limits.length > 1) return { error: 'limit must be given at most once' };
  if (statuses.length > 1) return { error: 'status must be given at most once' };
  let limit: number = listLimits.default;
  const rawLimit = limits[0];
  if (rawLimit !== undefined) {
    // A plain decimal of a few digits: no sign, exponent or hex, and exact as a Number.
    if (!/^\d{1,9}$/.test(rawLimit))
      return { error: `limit must be an integer from ${listLimits.min} to ${listLimits.max}` };
    limit = Number(rawLimit);
    if (limit < listLimits.min || limit > listLimits.max) {
      return {
        error: `limit must be an integer from ${listLimits.min} to ${listLimits.max}, got ${limit}`,
      };
    }
  }
  const rawStatus = statuses[0];
  if (rawStatus !== undefined && !(petStatuses as readonly string[]).includes(rawStatus)) {
    return { error: `status must be one of: ${petStatuses.join(', ')}` };
  }
  return { limit, status: rawStatus as PetStatus | undefined };
}

/**
 * The query a lenient server would act on (`badQuery` other than `refuse`): a limit out of range
 * clamped into it (`clamp`) or the default (`ignore`); anything else malformed, the default.
 */
function lenientQuery(
  query: URLSearchParams,
  badQuery: 'clamp' | 'ignore',
): { limit: number; status: PetStatus | undefined } {
  const rawLimit = query.get('limit') ?? '';
  let limit: number = listLimits.default;
  if (/^-?\d{1,9}$/.test(rawLimit)) {
    const given = Number(rawLimit);
    if (given >= listLimits.min && given <= listLimits.max) limit = given;
    else if (badQuery === 'clamp')
      limit = Math.min(listLimits.max, Math.max(listLimits.min, given));
  }
  const rawStatus = query.get('status');
  const status = (petStatuses as readonly (string | null)[]).includes(rawStatus)
    ? (rawStatus as PetStatus)
    : undefined;
  return { limit, status };
}

/** Answers listPets. */
export const listPets = ({ store, config }: RouteOptions): Handler => {
  /**
   * The JSON text of each page the store handed out. The store hands out the same frozen page
   * until a pet is inserted among its pets (mock/store/pet-list.ts), and its pets are frozen: a
   * page seen before is answered without serialising it again (a full page of 100 pets is most
   * of the request's cost). Entries go with their pages.
   */
  const pageAnswer = createFrozenJsonAnswers();
  return (context) => {
    const { url } = context;
    let query = parseListQuery(url.searchParams);
    if ('error' in query) {
      const { badQuery } = config;
      if (badQuery === 'refuse') return errorAnswer('invalid_query', query.error);
      query = lenientQuery(url.searchParams, badQuery);
    }
    const page = (context.get(requestStoreSlot) ?? store).list(
      query.limit,
      query.status,
      config.listOrder,
    );
    return page instanceof Promise ? page.then(pageAnswer) : pageAnswer(page);
  };
};
