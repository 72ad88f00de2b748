/**
 * Every check. Active checks run in the order of their `priority` (the rate-limit exhaustion
 * last), so adding a check is one file and one line here, anywhere in the list.
 */
import { authMalformedHeader, authMissingKey, authUnknownKey } from './auth-checks.ts';
import type { Check } from './check.ts';
import {
  createPetBodyRequired,
  createPetConcurrentCreates,
  createPetCreated,
  createPetExtraFields,
  createPetInt64CategoryId,
  createPetInvalidValues,
  createPetMalformedJson,
  createPetNameEdgeCases,
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
import { rateLimitKeysIndependent } from './key-window-checks.ts';
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
  createPetReadBackUnchanged,
  createPetUniqueIds,
  errorsBodyShape,
  errorsStatusMatches,
  getPetDeprecationHeader,
  getPetSunsetDate,
  headersRateLimitOnEveryResponse,
  headersRateLimitResetIsTime,
  headersRateLimitValues,
  prismExchangesValid,
  rateLimitPlanLimits,
  rateLimitRemainingDecreases,
  rateLimitRetryAfterOn429,
  responsesJson,
  serverNo5xx,
  serverNoFaults,
} from './observers.ts';
import { rateLimitOthersNotCounted } from './others-not-counted.ts';
import { rateLimitExceededGives429, rateLimitServedAfterRetryAfter } from './rate-limit-checks.ts';

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
  getPetDeprecationHeader,
  createPetCreated,
  createPetRoundTrip,
  createPetRequiredFields,
  createPetInvalidValues,
  createPetBodyRequired,
  createPetMalformedJson,
  createPetExtraFields,
  createPetNameEdgeCases,
  createPetInt64CategoryId,
  createPetRefusedLeavesNoPet,
  createPetReadBackUnchanged,
  createPetUniqueIds,
  modelCreateListGet,
  authMissingKey,
  authUnknownKey,
  authMalformedHeader,
  rateLimitKeysIndependent,
  createPetConcurrentCreates,
  errorsBodyShape,
  errorsStatusMatches,
  responsesJson,
  headersRateLimitOnEveryResponse,
  headersRateLimitResetIsTime,
  headersRateLimitValues,
  rateLimitRemainingDecreases,
  rateLimitOthersNotCounted,
  rateLimitPlanLimits,
  rateLimitRetryAfterOn429,
  rateLimitExceededGives429,
  rateLimitServedAfterRetryAfter,
  serverNo5xx,
  serverNoFaults,
  prismExchangesValid,
];

/** The ids of every check. */
export const checkIds: readonly string[] = allChecks.map((check) => check.id);
