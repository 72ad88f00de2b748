/**
 * Request bodies for `POST /pets`: valid NewPets, and bodies that miss required fields, carry
 * wrong types or unknown statuses, extra fields, edge-case names and int64 edges. Every name
 * starts with the run prefix, so pets a run creates on a shared server can be recognised.
 * NewPet's fields, which are required and what values they take come from the OpenAPI document
 * (contract/pet-fields.ts, field-values.ts): a field the document adds is sent too.
 */
import fc from 'fast-check';
import { int64, type PetStatus } from '../contract/interface-facts.ts';
import { newPetFieldNames, newPetFields, requiredNewPetFields } from '../contract/pet-fields.ts';
import { toJsonText } from '../http/exact-json.ts';
import { fieldArbitraries, invalidValue, objectValue, zipFields } from './field-values.ts';

/** What a valid body asks the server to store: NewPet's fields that are set. */
export interface SentPet {
  readonly name: string;
  readonly categoryId: bigint;
  readonly status?: PetStatus;
  /** Any other field the document gives NewPet. */
  readonly [field: string]: unknown;
}

/** A body to send: its text, and the pet it asks for when it is a valid NewPet. */
export interface BodyCase {
  readonly label: string;
  /** Raw text; `undefined` sends no body. */
  readonly body: string | undefined;
  readonly sent?: SentPet;
}

/** The body for `pet`: its fields that are set, in its order. */
function toBody(pet: SentPet): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(pet)) if (value !== undefined) body[field] = value;
  return body;
}

/** A valid body case for `pet`. */
export function validCase(label: string, pet: SentPet): BodyCase {
  return { label, body: toJsonText(toBody(pet)), sent: pet };
}

/**
 * One arbitrary per NewPet field, in the document's order, for a valid NewPet: `name` as given,
 * every other field derived from its schema (optional ones sometimes left out).
 */
export function newPetArbitraries(name: fc.Arbitrary<string>): fc.Arbitrary<unknown>[] {
  return fieldArbitraries(newPetFields, { name });
}

/** The SentPet of values drawn from `newPetArbitraries`, in the same order. */
export function sentPet(values: readonly unknown[]): SentPet {
  return zipFields(newPetFields, values) as SentPet;
}

/** A plainly valid NewPet: prefixed letters and digits, a small categoryId, status or none. */
const plainPet = (prefix: string): fc.Arbitrary<SentPet> =>
  objectValue(newPetFields, {
    name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,19}$/).map((text) => `${prefix}${text}`),
  }) as fc.Arbitrary<SentPet>;

/** Valid NewPet bodies. */
export const validBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  plainPet(prefix).map((pet) => validCase('valid NewPet', pet));

/** Each required field alone, then all of them together (`name`, `categoryId`, both). */
const dropChoices: readonly (readonly string[])[] =
  requiredNewPetFields.length > 1
    ? [...requiredNewPetFields.map((field) => [field]), requiredNewPetFields]
    : [requiredNewPetFields];

/** Bodies without `name`, without `categoryId`, or without both (interface: 400). */
export const missingRequiredBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  fc.tuple(plainPet(prefix), fc.constantFrom(...dropChoices)).map(([pet, drop]) => {
    const body = toBody(pet);
    for (const field of drop) delete body[field];
    return { label: `without ${drop.join(' and ')}`, body: toJsonText(body) };
  });

/** Each NewPet field with the values its schema refuses, in the document's order. */
const wrongValues = newPetFields.flatMap((field) => {
  const values = invalidValue(field.schema);
  return values === undefined ? [] : [values.map((value) => [field.name, value] as const)];
});

/** Bodies with one field of the wrong type or value (interface: 400 for invalid values). */
export const invalidValueBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  fc.tuple(plainPet(prefix), fc.oneof(...wrongValues)).map(([pet, [field, value]]) => {
    const body = { ...toBody(pet), [field]: value };
    return { label: `${field} = ${toJsonText(value)}`, body: toJsonText(body) };
  });

/** Bodies that are missing, empty, not JSON or not an object (interface: a JSON NewPet is required). */
export const notANewPetBody = (): fc.Arbitrary<BodyCase> =>
  fc.constantFrom<BodyCase>(
    { label: 'no body', body: undefined },
    { label: 'empty object', body: '{}' },
    { label: 'JSON null', body: 'null' },
    { label: 'JSON array', body: '[]' },
    { label: 'JSON string', body: '"a pet"' },
    { label: 'JSON number', body: '42' },
  );

/** Bodies that are not JSON at all (truncated, trailing garbage, empty). */
export const malformedJsonBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  validBody(prefix).chain((base) =>
    fc.constantFrom<BodyCase>(
      { label: 'empty text', body: '' },
      { label: 'truncated JSON', body: (base.body ?? '').slice(0, -1) },
      { label: 'trailing garbage', body: `${base.body ?? ''}x` },
      { label: 'single quotes', body: (base.body ?? '').replaceAll('"', "'") },
    ),
  );

/** Valid bodies plus fields NewPet does not define (the interface does not say what happens). */
export const extraFieldsBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  fc
    .tuple(
      plainPet(prefix),
      fc.dictionary(
        fc.stringMatching(/^[a-zA-Z_]{1,12}$/).filter((key) => !newPetFieldNames.includes(key)),
        fc.jsonValue({ maxDepth: 2 }),
        { minKeys: 1, maxKeys: 3 },
      ),
    )
    .map(([pet, extra]) => ({
      label: `extra fields ${Object.keys(extra).join(', ')}`,
      body: toJsonText({ ...extra, ...toBody(pet) }),
      sent: pet,
    }));

/**
 * Names at the edges (the interface sets no constraints on `name`): very long, non-ASCII,
 * control characters. Empty and blank names carry no prefix, so only loopback runs send them.
 */
export const edgeNameBody = (prefix: string, allowUnprefixed: boolean): fc.Arbitrary<BodyCase> => {
  const names: fc.Arbitrary<string>[] = [
    fc.constantFrom(300, 1000, 5000).map((length) => `${prefix}${'x'.repeat(length)}`),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((text) => `${prefix}${text}`),
    fc
      .constantFrom(
        '猫のタマ',
        'Ωμέγα',
        'مرحبا',
        'e\u0301le\u0300ve',
        '🐕‍🦺🐈‍⬛',
        'tab\there',
        'line\nbreak',
        'nul\u0000byte',
      )
      .map((text) => `${prefix}${text}`),
  ];
  if (allowUnprefixed) names.push(fc.constantFrom('', ' ', '   \t'));
  return fc.tuple(...newPetArbitraries(fc.oneof(...names))).map((values) => {
    const pet = sentPet(values);
    return validCase(`name of ${[...pet.name].length} characters`, pet);
  });
};

/**
 * The name edge classes every run tries first, whatever its seed and budget: a very long name,
 * one with non-ASCII and control characters, and (loopback only) the empty name.
 */
export function edgeNameExamples(prefix: string, allowUnprefixed: boolean): BodyCase[] {
  const cases = [
    // Each edge name with a different status (pairwise with status; the int64 examples take the
    // others), so a server that mishandles one status with an unusual body shows it too.
    validCase('name of 300 characters', {
      name: `${prefix}${'x'.repeat(300)}`,
      categoryId: 1n,
      status: 'available',
    }),
    validCase('non-ASCII and control characters in the name', {
      name: `${prefix}猫のタマ Ωμέγα 🐕‍🦺 tab\there\u0001\u0000`,
      categoryId: 2n,
      status: 'pending',
    }),
  ];
  if (allowUnprefixed)
    cases.push(validCase('empty name', { name: '', categoryId: 3n, status: 'sold' }));
  return cases;
}

/** categoryIds at the int64 edges and around 2^53, where JS numbers stop being exact. */
export const int64CategoryBody = (prefix: string): fc.Arbitrary<BodyCase> =>
  fc
    .tuple(
      plainPet(prefix),
      fc.oneof(
        fc.constantFrom(
          int64.min,
          int64.max,
          2n ** 53n,
          2n ** 53n + 1n,
          -(2n ** 53n) - 1n,
          0n,
          -1n,
        ),
        fc.bigInt(int64.min, int64.max),
      ),
    )
    .map(([pet, categoryId]) => validCase(`categoryId ${categoryId}`, { ...pet, categoryId }));
