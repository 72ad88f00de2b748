/**
 * The single-fault variants of the fake the harness must catch, one per rule. Each wraps the
 * real fake (see intercept.ts); none is a branch inside mock/.
 */
import { authMutants } from './auth-mutants.ts';
import { createPetMutants } from './create-pet-mutants.ts';
import { edgeClassMutants } from './edge-class-mutants.ts';
import { getPetMutants } from './get-pet-mutants.ts';
import { keyWindowMutants } from './key-window-mutants.ts';
import { listPetsMutants } from './list-pets-mutants.ts';
import type { Mutant } from './mutant.ts';
import { rateLimitMutants } from './rate-limit-mutants.ts';
import { responseMutants } from './response-mutants.ts';
import { unexercisedMutants } from './unexercised-mutants.ts';

/** Every mutant, in the order of the interface. */
export const mutants: readonly Mutant[] = [
  ...listPetsMutants,
  ...getPetMutants,
  ...createPetMutants,
  ...edgeClassMutants,
  ...authMutants,
  ...responseMutants,
  ...rateLimitMutants,
  ...keyWindowMutants,
  ...unexercisedMutants,
];
