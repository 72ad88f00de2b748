/**
 * Every check. Active checks run in the order of their `priority` (the rate-limit exhaustion
 * last), so adding a check is one file (an observer: one file in observers/) and here its import
 * and one line, anywhere in the list.
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
import { createPetReadBackUnchanged } from './observers/create-pet-read-back-unchanged.ts';
import { createPetUniqueIds } from './observers/create-pet-unique-ids.ts';
import { errorsBodyShape } from './observers/errors-body-shape.ts';
import { errorsStatusMatches } from './observers/errors-status-matches.ts';
import { getPetDeprecationHeader } from './observers/get-pet-deprecation-header.ts';
import { getPetSunsetDate } from './observers/get-pet-sunset-date.ts';
import { headersRateLimitOnEveryResponse } from './observers/headers-rate-limit-on-every-response.ts';
import { headersRateLimitResetIsTime } from './observers/headers-rate-limit-reset-is-time.ts';
import { headersRateLimitValues } from './observers/headers-rate-limit-values.ts';
import { prismExchangesValid } from './observers/prism-exchanges-valid.ts';
import { rateLimitOthersNotCounted } from './observers/rate-limit-others-not-counted.ts';
import { rateLimitPlanLimits } from './observers/rate-limit-plan-limits.ts';
import { rateLimitRemainingDecreases } from './observers/rate-limit-remaining-decreases.ts';
import { rateLimitRetryAfterOn429 } from './observers/rate-limit-retry-after-on-429.ts';
import { responsesJson } from './observers/responses-json.ts';
import { serverNo5xx } from './observers/server-no-5xx.ts';
import { serverNoFaults } from './observers/server-no-faults.ts';
import { rateLimitExceededGives429, rateLimitServedAfterRetryAfter } from './rate-limit-checks.ts';
import { errorsLargeRequests } from './request-size-checks.ts';

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
  errorsLargeRequests,
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
