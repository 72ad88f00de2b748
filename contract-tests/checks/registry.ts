/** Every check, in the order a run executes them; rate-limit exhaustion comes last. */
import { authMalformedHeader, authMissingKey, authUnknownKey } from './auth-checks.ts';
import type { Check } from './check.ts';
import {
  createPetConcurrentCreates,
  createPetCreated,
  createPetExtraFields,
  createPetInt64CategoryId,
  createPetInvalidValues,
  createPetMalformedJson,
  createPetNameEdges,
  createPetNotANewPet,
  createPetRefusedLeavesNoPet,
  createPetRequiredFields,
  createPetRoundTrip,
} from './create-pet-checks.ts';
import {
  getPetFound,
  getPetMalformedId,
  getPetNotFound,
  getPetResponseShape,
} from './get-pet-checks.ts';
import {
  listPetsDefaultLimit,
  listPetsLimitOutOfRange,
  listPetsLimitRespected,
  listPetsResponseShape,
  listPetsStatusFilter,
  listPetsUnknownStatus,
} from './list-pets-checks.ts';
import { modelCreateListGet } from './model-check.ts';
import {
  createPetUniqueIds,
  errorsBodyShape,
  errorsStatusMatches,
  getPetDeprecationSignalled,
  getPetSunsetDate,
  headersRateLimitPresent,
  headersRateLimitValues,
  prismExchangesValid,
  rateLimitPlanLimits,
  rateLimitRemainingDecreases,
  rateLimitRetryAfter,
  responsesJson,
  serverNo5xx,
  serverNoFaults,
} from './observers.ts';
import { rateLimitExceeded, rateLimitRecovers } from './rate-limit-checks.ts';

/** All checks. Ids are stable: CI configurations and the README refer to them. */
export const allChecks: readonly Check[] = [
  listPetsResponseShape,
  listPetsDefaultLimit,
  listPetsLimitRespected,
  listPetsStatusFilter,
  listPetsLimitOutOfRange,
  listPetsUnknownStatus,
  getPetResponseShape,
  getPetFound,
  getPetNotFound,
  getPetMalformedId,
  getPetSunsetDate,
  getPetDeprecationSignalled,
  createPetCreated,
  createPetRoundTrip,
  createPetRequiredFields,
  createPetInvalidValues,
  createPetNotANewPet,
  createPetMalformedJson,
  createPetExtraFields,
  createPetNameEdges,
  createPetInt64CategoryId,
  createPetRefusedLeavesNoPet,
  createPetUniqueIds,
  modelCreateListGet,
  authMissingKey,
  authUnknownKey,
  authMalformedHeader,
  createPetConcurrentCreates,
  errorsBodyShape,
  errorsStatusMatches,
  responsesJson,
  headersRateLimitPresent,
  headersRateLimitValues,
  rateLimitRemainingDecreases,
  rateLimitPlanLimits,
  rateLimitRetryAfter,
  rateLimitExceeded,
  rateLimitRecovers,
  serverNo5xx,
  serverNoFaults,
  prismExchangesValid,
];

/** The ids of every check. */
export const checkIds: readonly string[] = allChecks.map((check) => check.id);
