/**
 * `POST /pets` (createPet): validates the body against NewPet from the contract, then the fake's
 * own rules for points the interface leaves open (name length), and stores the pet.
 */
import { isJsonObject } from '../../base/contract/lossless-json.ts';
import { checkNewPet, describeIssues, newPetFields } from '../../base/contract/schemas.ts';
import type { NewPet, Pet } from '../../base/contract/types.ts';
import { type Answer, errorAnswer, jsonAnswer } from '../../base/messages/answer.ts';
import { errorTemplates } from '../../base/messages/errors.ts';
import { maxPetId } from '../../pipeline/persistence.ts';
import type { Context, Handler } from '../../pipeline/pipeline.ts';
import { StorageError } from '../../pipeline/storage-error.ts';
import { type BodyResult, readJsonBody, requestJsonSlot } from './request-body.ts';
import { type RouteOptions, requestStoreSlot } from './route.ts';

/** Checks a parsed body; returns the NewPet or a message saying every problem found. */
export function validateNewPet(
  body: unknown,
  maxNameLength: number,
  unknownFields: 'ignore' | 'refuse' = 'ignore',
): { pet: NewPet } | { error: string } {
  if (!isJsonObject(body))
    return { error: 'The request body must be a JSON object shaped as NewPet.' };
  if (unknownFields === 'refuse') {
    const unknown = Object.keys(body).filter((key) => !newPetFields.includes(key));
    if (unknown.length > 0)
      return {
        error: `unknown field(s): ${unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}`,
      };
  }
  const issues = checkNewPet(body);
  if (issues.length > 0) return { error: describeIssues(issues) };
  const pet = body as NewPet;
  // The interface sets no length limits; the fake refuses blank and very long names (README).
  if (pet.name.trim() === '') return { error: 'name must not be blank' };
  // Counted in code points; a name within the cap in UTF-16 units is within it anyway.
  if (pet.name.length > maxNameLength && [...pet.name].length > maxNameLength)
    return { error: `name must be at most ${maxNameLength} characters` };
  return { pet };
}

/** Answers createPet: synchronously when the door has the body and the store answers at once. */
export const createPet = ({ store, config }: RouteOptions): Handler => {
  const answerCreated = (pet: Pet | 'full' | undefined): Answer => {
    if (pet === 'full')
      return errorAnswer(
        'store_full',
        `The fake holds its maximum of ${config.maxPets} pets; reset it or raise maxPets.`,
      );
    if (pet === undefined)
      return errorAnswer(
        'store_full',
        `Every pet id up to ${maxPetId} (2^53 - 1) is used; reset or restore the fake.`,
      );
    return jsonAnswer(201, pet);
  };
  /** The store undid the create: an Error, never a 201 for a pet a restart would lose. */
  const storageFailed = (error: unknown): Answer => {
    if (!(error instanceof StorageError)) throw error;
    const code = error.kind === 'full' ? 'insufficient_storage' : 'storage_failed';
    return errorAnswer(code, `${errorTemplates[code].message} (${error.message})`);
  };
  const create = (context: Context, body: BodyResult): Answer | Promise<Answer> => {
    if (!body.ok) return body.answer;
    context.set(requestJsonSlot, body);
    const result = validateNewPet(body.value, config.maxNameLength, config.unknownFields);
    if ('error' in result) return errorAnswer('invalid_body', result.error);
    const { status = config.defaultStatus } = result.pet;
    let created: ReturnType<typeof store.create>;
    try {
      // The store keeps only the contract's fields (anything else the body carried is dropped).
      created = (context.get(requestStoreSlot) ?? store).create(
        { ...result.pet, status },
        config.maxPets,
      );
    } catch (error) {
      return storageFailed(error);
    }
    return created instanceof Promise
      ? created.then(answerCreated, storageFailed)
      : answerCreated(created);
  };
  return (context) => {
    const body = readJsonBody(context.request, config.maxBodyBytes);
    return body instanceof Promise
      ? body.then((read) => create(context, read))
      : create(context, body);
  };
};
