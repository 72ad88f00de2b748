/**
 * The numbers and names the interface (openapi/interface.md) states, in one place, so every check quotes the
 * interface rather than a constant of its own. Shapes come from the OpenAPI document (schemas.ts).
 */
import { openapiDocument } from '../../mock/internal/entry.ts';

/** Page size of `GET /pets`: minimum 1, maximum 100, default 20 (interface, "Limits"). */
export const pageSize = { min: 1, max: 100, default: 20 } as const;

/** The PetStatus values, in the OpenAPI document's order (interface, "PetStatus"). */
export const petStatuses = openapiDocument.components.schemas.PetStatus.enum;

/** One PetStatus value. */
export type PetStatus = (typeof petStatuses)[number];

/** Removal date of the deprecated `GET /pets/{petId}`: 5 December 2030 (UTC calendar day). */
export const getPetSunsetDay = { year: 2030, month: 12, day: 5 } as const;

/** The version prefix the base address ends with (interface, "Versioning"). */
export const versionPrefix = '/v1';

/**
 * Which of the interface's three operations a method and a path under the base address are
 * (`GET /pets`, `POST /pets`, `GET /pets/{petId}`), or undefined for any other request.
 */
export function operationOf(
  method: string,
  path: string,
): 'listPets' | 'createPet' | 'getPet' | undefined {
  if (path === '/pets')
    return method === 'GET' ? 'listPets' : method === 'POST' ? 'createPet' : undefined;
  if (/^\/pets\/[^/]+$/.test(path) && method === 'GET') return 'getPet';
  return undefined;
}

/** The three rate-limit headers promised on every response (interface, "Rate limit headers"). */
export const rateLimitHeaders = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

/** Smallest and largest int64 values (NewPet.categoryId, Pet.id, petId are int64). */
export const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n } as const;

/** The plan table (interface, "Rate limits by plan"); Enterprise is "custom", so it has no numbers. */
export const planLimits = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
} as const;

/** A plan whose limits the interface gives. */
export type PlanName = keyof typeof planLimits;
