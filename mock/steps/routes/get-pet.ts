/**
 * `GET /pets/{petId}` (getPet), deprecated: 200 or 404, with the deprecation headers on every
 * response, and gone (404 `endpoint_removed`) once the fake's clock passes the sunset.
 */

import { deprecationHeaders, isSunset } from '../../base/contract/deprecation.ts';
import { type Answer, createFrozenJsonAnswers, errorAnswer } from '../../base/messages/answer.ts';
import type { ResolvedConfig } from '../../pipeline/config/config.ts';
import type { Handler } from '../../pipeline/pipeline.ts';
import { type RouteOptions, requestStoreSlot, routeSlot } from './route.ts';

const INT64_MAX = 2n ** 63n - 1n;
const shortId = /^-?\d{1,15}$/;

/**
 * Parses a path id as int64, or `undefined` when it is not one. Ids past 2^53 are valid int64
 * values that no stored pet can have, so they come back as `undefined` too: a rounded Number
 * would match a different pet.
 */
export function parsePetId(raw: string): number | undefined {
  // Up to 15 digits is always a safe integer: no BigInt needed (every id the store hands out).
  if (shortId.test(raw)) return Number(raw);
  if (!isInt64Text(raw)) return undefined;
  const id = Number(BigInt(raw));
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Whether a path id is an int64 written in decimal (ids past 2^53 included). */
function isInt64Text(raw: string): boolean {
  if (!/^-?\d{1,20}$/.test(raw)) return false;
  const big = BigInt(raw);
  return big >= -INT64_MAX - 1n && big <= INT64_MAX;
}

/** The deprecation headers of getPet, pointing at its replacement on the same origin. */
export function getPetHeaders(config: ResolvedConfig): (url: URL) => Record<string, string> {
  // Built once per origin (a fake answers on one or two): the schedule is fixed at creation, and
  // the route-headers step copies them onto each answer rather than keeping the record.
  const byOrigin = new Map<string, Record<string, string>>();
  return (url) => {
    const { origin } = url;
    let headers = byOrigin.get(origin);
    if (headers === undefined) {
      if (byOrigin.size >= 8) byOrigin.clear();
      headers = Object.freeze(
        deprecationHeaders(config.deprecation, `${origin}${config.basePath}/pets`),
      );
      byOrigin.set(origin, headers);
    }
    return headers;
  };
}

/** The 404 of a petId no stored pet has, naming it (cut to 40 characters). */
function notFound(raw: string | undefined): Answer {
  return errorAnswer('not_found', `No pet with id ${String(raw).slice(0, 40)}.`);
}

/** Answers getPet. */
export const getPet = ({ store, clock, config }: RouteOptions): Handler => {
  // Stored pets are frozen (store/pet-store.ts): a pet asked for again keeps its JSON.
  const petAnswer = createFrozenJsonAnswers();
  return (context) => {
    if (isSunset(config.deprecation, clock.now())) {
      return errorAnswer(
        'endpoint_removed',
        'GET /pets/{petId} was removed on its sunset date; use GET /pets?status=...',
      );
    }
    const raw = context.need(routeSlot).params.petId;
    if (config.malformedIdStatus === 400 && !isInt64Text(raw ?? ''))
      return errorAnswer(
        'invalid_id',
        `petId must be an int64, got ${JSON.stringify(String(raw).slice(0, 40))}.`,
      );
    const id = raw === undefined ? undefined : parsePetId(raw);
    const pet = id === undefined ? undefined : (context.get(requestStoreSlot) ?? store).get(id);
    if (pet instanceof Promise)
      return pet.then((found) => (found === undefined ? notFound(raw) : petAnswer(found)));
    return pet === undefined ? notFound(raw) : petAnswer(pet);
  };
};
