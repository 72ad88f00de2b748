/**
 * Values derived from a field's JSON Schema: the plain ones are valid and the wrong ones are not,
 * as Ajv (with ajv-formats) and the fake's validator judge them, for the document's NewPet and
 * for schemas a field the document adds could have.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { checkNewPet, compileSchema, parseJson } from '../../mock/internal/entry.ts';
import { samePet, sameValue } from '../checks/same-pet.ts';
import {
  type FieldSchema,
  fieldsOf,
  newPetFieldNames,
  petFieldNames,
} from '../contract/pet-fields.ts';
import { toJsonText } from '../http/exact-json.ts';
import { invalidValue, objectValue, validValue } from './field-values.ts';
import {
  edgeNameBody,
  extraFieldsBody,
  int64CategoryBody,
  invalidValueBody,
  missingRequiredBody,
  validBody,
} from './new-pet.ts';

const ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));

/** The value as a server parses it (integers past 2^53 as bigint). */
const parsed = (value: unknown) => parseJson(toJsonText(value));

test('the fields come from the document: NewPet name, categoryId, status; Pet id first, then those', () => {
  expect(newPetFieldNames).toEqual(['name', 'categoryId', 'status']);
  expect(petFieldNames).toEqual(['id', 'name', 'categoryId', 'status']);
  const withNickname: FieldSchema = {
    allOf: [
      {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, nickname: { type: 'string', maxLength: 40 } },
      },
      { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
    ],
  };
  expect(fieldsOf(withNickname).map(({ name, required }) => [name, required])).toEqual([
    ['name', true],
    ['nickname', false],
    ['id', true],
  ]);
});

test('every valid body the harness sends is a NewPet; every invalid-value or missing-field body is not', () => {
  const prefix = 'contract-test-';
  for (const [arbitrary, valid] of [
    [validBody(prefix), true],
    [edgeNameBody(prefix, true), true],
    [int64CategoryBody(prefix), true],
    [extraFieldsBody(prefix), true],
    [invalidValueBody(prefix), false],
    [missingRequiredBody(prefix), false],
  ] as const) {
    for (const body of fc.sample(arbitrary, { seed: 20, numRuns: 300 })) {
      const issues = checkNewPet(parseJson(body.body ?? ''));
      expect(issues.length === 0, `${body.label}: ${body.body}`).toBe(valid);
      if (valid) expect(body.sent, body.label).toBeDefined();
    }
  }
});

// Schemas a field the document adds could have: each keyword the derivation reads.
const schemas: readonly FieldSchema[] = [
  { type: 'string', maxLength: 40 },
  { type: 'string', minLength: 3, maxLength: 5 },
  { type: 'string', minLength: 30 },
  { type: 'string', enum: ['small', 'medium', 'large'] },
  { type: 'string', format: 'date-time' },
  { type: 'string', format: 'date' },
  { type: 'string', format: 'email' },
  { type: 'string', format: 'uuid' },
  { type: 'string', format: 'uri' },
  { type: 'string', pattern: '^[A-Z]{2}-[0-9]{3}$' },
  { type: 'integer', minimum: 0, maximum: 5 },
  { type: 'integer', minimum: 2000 },
  { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 3 },
  { type: 'integer', format: 'int32' },
  { type: 'number', minimum: 0, maximum: 1 },
  { type: 'boolean' },
  { type: 'null' },
  { type: ['string', 'null'], maxLength: 4 },
  { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 1, maxItems: 2 },
  {
    type: 'object',
    required: ['weight'],
    properties: { weight: { type: 'integer', minimum: 1 }, unit: { enum: ['kg', 'lb'] } },
  },
];

test('plain values of a schema are valid for it and wrong values are not (Ajv with formats)', () => {
  for (const schema of schemas) {
    const validate = ajv.compile(schema);
    for (const value of fc.sample(validValue(schema), { seed: 3, numRuns: 200 }))
      expect(
        validate(JSON.parse(toJsonText(value))),
        `${JSON.stringify(schema)} ${toJsonText(value)}`,
      ).toBe(true);
    const wrong = invalidValue(schema);
    // A union of types: no wrong values the harness can be sure of.
    if (Array.isArray(schema.type)) {
      expect(wrong).toBeUndefined();
      continue;
    }
    expect(wrong, JSON.stringify(schema)).toBeDefined();
    for (const value of fc.sample(wrong as fc.Arbitrary<unknown>, { seed: 3, numRuns: 200 }))
      expect(
        validate(JSON.parse(toJsonText(value))),
        `${JSON.stringify(schema)} ${toJsonText(value)}`,
      ).toBe(false);
  }
});

test('int64 values stay exact: plain and wrong values judged by the fake validator on lossless JSON', () => {
  const int64: FieldSchema = { type: 'integer', format: 'int64' };
  const check = compileSchema(int64 as Record<string, unknown>);
  for (const value of fc.sample(validValue(int64), { seed: 5, numRuns: 100 }))
    expect(check(parsed(value))).toEqual([]);
  const wrong = fc.sample(invalidValue(int64) as fc.Arbitrary<unknown>, { seed: 5, numRuns: 100 });
  for (const value of wrong)
    expect(check(parsed(value)).length, toJsonText(value)).toBeGreaterThan(0);
  // Past each end of int64 by one, and a number no double holds exactly.
  expect(wrong).toEqual(expect.arrayContaining([2n ** 63n, -(2n ** 63n) - 1n, 10n ** 30n]));
});

test('an optional field with maxLength 40 is sometimes sent, never longer than 40; wrong values include 41 to 45 characters', () => {
  const fields = fieldsOf({
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, nickname: { type: 'string', maxLength: 40 } },
  });
  const objects = fc.sample(objectValue(fields, {}), { seed: 9, numRuns: 200 });
  const nicknames = objects.flatMap((object) =>
    typeof object.nickname === 'string' ? [object.nickname] : [],
  );
  expect(nicknames.length).toBeGreaterThan(100);
  expect(objects.length - nicknames.length).toBeGreaterThan(0);
  expect(Math.max(...nicknames.map((nickname) => nickname.length))).toBeLessThanOrEqual(40);
  const wrong = fc.sample(
    invalidValue({ type: 'string', maxLength: 40 }) as fc.Arbitrary<unknown>,
    {
      seed: 9,
      numRuns: 200,
    },
  );
  const tooLong = wrong.filter((value) => typeof value === 'string');
  expect(tooLong.length).toBeGreaterThan(0);
  for (const text of tooLong) expect((text as string).length).toBeGreaterThan(40);
});

test("the fake's validator counts maxLength and minLength in code points, as Ajv does", () => {
  const schema = { type: 'string', minLength: 2, maxLength: 3 };
  const check = compileSchema(schema);
  const validate = ajv.compile(schema);
  for (const text of ['a', 'ab', 'abc', 'abcd', '🐕', '🐕🐈', '🐕🐈🐾', '🐕🐈🐾x', 'e\u0301'])
    expect(check(text).length === 0, text).toBe(validate(text));
  expect(check('abcd')).toEqual([{ path: '', message: 'must be at most 3 characters' }]);
});

test('samePet compares every field the document gives Pet, a field it adds included', () => {
  const pet = { id: 1n, name: 'Rex', categoryId: 2n, status: 'sold' };
  expect(samePet(pet, { ...pet })).toBeUndefined();
  expect(samePet(pet, { ...pet, status: 'pending' })).toBe('status "sold" became "pending"');
  expect(samePet(pet, { ...pet, extra: 1 })).toBeUndefined();
  expect(samePet({ ...pet, nickname: 'Rexy' }, pet, [...petFieldNames, 'nickname'])).toBe(
    'nickname "Rexy" became undefined',
  );
  expect(sameValue({ a: [1n, 'x'] }, { a: [1, 'x'] })).toBe(true);
  expect(sameValue({ a: [1n, 'x'] }, { a: [1n, 'y'] })).toBe(false);
  expect(sameValue([1n], { 0: 1n })).toBe(false);
  expect(sameValue(2n, 2.5)).toBe(false);
});
