/** Reading a 201 from createPet and reading the pet back: shared by the createPet checks and the model. */
import type { SentPet } from '../arbitraries/new-pet.ts';
import { newPetFieldNames } from '../contract/pet-fields.ts';
import { checkPet } from '../contract/schemas.ts';
import type { Exchange } from '../http/exchange.ts';
import { fail } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectShape, expectStatus } from './expect.ts';
import { getPetRequest } from './requests.ts';
import { samePet, sameValue, show } from './same-pet.ts';

/** A pet as the server returned it, integers exact. */
export interface ExactPet {
  readonly id: bigint;
  readonly name: string;
  readonly categoryId: bigint;
  readonly status?: string;
  /** Any other field the document gives Pet. */
  readonly [field: string]: unknown;
}

/**
 * Why a 201 does not carry the pet that was sent (a field it set came back otherwise), or
 * undefined when it does: what createPet.created judges of any create, and the round trip reads.
 */
export function createdFieldsProblem(
  pet: Readonly<Record<string, unknown>>,
  sent: Readonly<Record<string, unknown>>,
  what: string,
): string | undefined {
  // Every NewPet field the document declares and the body set; one left out (status) is the
  // server's to choose.
  for (const field of newPetFieldNames) {
    const value = sent[field];
    if (value !== undefined && !sameValue(pet[field], value))
      return `${what}: ${field} ${show(value)} came back as ${show(pet[field])}`;
  }
  return undefined;
}

/** Requires 201 with a Pet that carries every field that was sent; returns it exactly. */
export function expectCreated(exchange: Exchange, sent: SentPet, what: string): ExactPet {
  const response = expectStatus(exchange, [201], what);
  expectShape(exchange, checkPet, what);
  const pet = response.exact as ExactPet;
  const problem = createdFieldsProblem(pet, sent, what);
  if (problem !== undefined) fail(problem, exchange);
  return pet;
}

/** Requires `GET /pets/{id}` to return the created pet unchanged. */
export async function expectReadBack(context: CheckContext, created: ExactPet): Promise<void> {
  const exchange = await context.send(getPetRequest(created.id));
  const response = expectStatus(exchange, [200], `GET /pets/${created.id} right after creating it`);
  expectShape(exchange, checkPet, `GET /pets/${created.id}`);
  const difference = samePet(created, response.exact);
  if (difference !== undefined)
    fail(`GET /pets/${created.id} does not return the created pet: ${difference}`, exchange);
}
