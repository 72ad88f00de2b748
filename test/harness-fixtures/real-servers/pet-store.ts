/**
 * The Pet Store every realistic server serves, free of any framework: an in-memory list of pets
 * and the three operations as the interface states them, each returning the status and JSON body
 * to send. Where the interface is silent (malformed ids, limits out of range, unknown fields) the
 * server's own choices decide. Bodies are parsed and written with int64 kept exact, as a team
 * whose ids are int64 must.
 */

import { int64, pageSize } from '../../../contract-tests/contract/interface-facts.ts';
import type { NewPet, Pet } from '../../../mock/internal/entry.ts';
import {
  checkNewPet,
  describeIssues,
  parseJson,
  petStatuses,
  stringifyJson,
} from '../../../mock/internal/entry.ts';

/** What a server chooses where the interface says "not shown". */
export interface PetStoreChoices {
  /** Status for a petId that is not an int64 (`abc`, 2^63): 400 or 404. */
  readonly malformedIdStatus?: 400 | 404;
  /** A `limit` outside 1..100: refused with 400, or clamped into the range. */
  readonly limitOutOfRange?: 'refuse' | 'clamp';
  /** Whether fields NewPet does not define are kept on the stored pet (and returned). */
  readonly keepUnknownFields?: boolean;
}

/** An answer to send: status and JSON body (int64 values may be bigint). */
export interface PetStoreAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** An Error body (interface, "Errors": code, message, status). */
export function errorAnswer(status: number, code: string, message: string): PetStoreAnswer {
  return { status, body: { code, message, status } };
}

/** The JSON text of an answer's body, int64 exact. */
export function answerText(answer: PetStoreAnswer): string {
  return stringifyJson(answer.body);
}

/** The query of `GET /pets` as a framework hands it over (first value of each parameter). */
interface ListQuery {
  readonly limit?: string | undefined;
  readonly status?: string | undefined;
}

/** The operations of one server's store. */
export interface PetStore {
  listPets(query: ListQuery): PetStoreAnswer;
  /** `bodyText` is the raw request body ('' when none was sent). */
  createPet(bodyText: string): PetStoreAnswer;
  getPet(petId: string): PetStoreAnswer;
}

const seedNames = ['Rex', 'Tom', 'Kitty', 'Bella', 'Max', 'Luna', 'Coco', 'Milo', 'Nala'];

/** 30 pets, every status represented, more than a default page. */
function seedPets(): Pet[] {
  return Array.from({ length: 30 }, (_, index) => ({
    id: index + 1,
    name: `${seedNames[index % seedNames.length]} ${index + 1}`,
    categoryId: (index % 4) + 1,
    status: petStatuses[index % petStatuses.length] ?? 'available',
  }));
}

const isStatus = (value: string): value is Pet['status'] & string =>
  (petStatuses as readonly string[]).includes(value);

/** The int64 a path segment names, or undefined when it names none. */
function int64Of(text: string): bigint | undefined {
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= int64.min && value <= int64.max ? value : undefined;
}

/** A new store seeded with 30 pets, answering with the given choices. */
export function createPetStore(choices: PetStoreChoices = {}): PetStore {
  const pets = new Map<string, Pet>(seedPets().map((pet) => [String(pet.id), pet]));
  let nextId = pets.size + 1;
  const malformedIdStatus = choices.malformedIdStatus ?? 400;

  function pageSizeOf(limit: string | undefined): number | PetStoreAnswer {
    if (limit === undefined) return pageSize.default;
    if (!/^-?\d+$/.test(limit))
      return errorAnswer(400, 'invalid_query', `limit must be an integer, got ${limit}`);
    const value = Number(limit);
    if (value >= pageSize.min && value <= pageSize.max) return value;
    if (choices.limitOutOfRange === 'clamp')
      return Math.min(pageSize.max, Math.max(pageSize.min, value));
    return errorAnswer(400, 'invalid_query', `limit must be between 1 and 100, got ${limit}`);
  }

  return {
    listPets(query) {
      const size = pageSizeOf(query.limit);
      if (typeof size !== 'number') return size;
      const { status } = query;
      if (status !== undefined && !isStatus(status))
        return errorAnswer(400, 'invalid_query', `status must be one of ${petStatuses.join(', ')}`);
      const matching = [...pets.values()].filter(
        (pet) => status === undefined || pet.status === status,
      );
      return { status: 200, body: matching.slice(0, size) };
    },
    createPet(bodyText) {
      let body: unknown;
      try {
        body = parseJson(bodyText);
      } catch {
        return errorAnswer(400, 'invalid_json', 'the body is not JSON');
      }
      const issues = checkNewPet(body);
      if (issues.length > 0) return errorAnswer(400, 'invalid_body', describeIssues(issues));
      const { name, categoryId, status, ...unknown } = body as NewPet;
      const pet: Pet = {
        ...(choices.keepUnknownFields === true ? unknown : {}),
        id: nextId,
        name,
        categoryId,
        ...(status === undefined ? {} : { status }),
      };
      nextId += 1;
      pets.set(String(pet.id), pet);
      return { status: 201, body: pet };
    },
    getPet(petId) {
      const id = int64Of(petId);
      if (id === undefined)
        return errorAnswer(
          malformedIdStatus,
          malformedIdStatus === 404 ? 'not_found' : 'invalid_id',
          `petId must be an int64, got ${petId}`,
        );
      const pet = pets.get(String(id));
      return pet === undefined
        ? errorAnswer(404, 'not_found', `no pet has id ${id}`)
        : { status: 200, body: pet };
    },
  };
}
