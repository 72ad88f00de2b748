/**
 * The generated contract module, the hand-rolled validator and the fixtures all answer to the
 * OpenAPI document; Ajv (an independent, standard validator) is the judge.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import pets from '../../../fixtures/pets.json' with { type: 'json' };
import {
  generatedPath,
  renderContractModule,
  yamlPath,
} from '../../../scripts/generate-contract.ts';
import { snapshotProblem } from '../../pipeline/persistence.ts';
import { openapiDocument } from './openapi.generated.ts';
import { compileSchema } from './schema-validator.ts';
import { checkNewPet, checkPet } from './schemas.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
// OpenAPI's int64 format: a signed 64-bit integer. 2 ** 63 is exact as a double; 2 ** 63 - 1 is not.
ajv.addFormat('int64', { type: 'number', validate: (n: number) => n >= -(2 ** 63) && n < 2 ** 63 });
const schemas = openapiDocument.components.schemas;
const ajvNewPet = ajv.compile(schemas.NewPet);
const ajvPet = ajv.compile(schemas.Pet);

test('the generated contract module is up to date with openapi/petstore.yaml (run `npm run generate`)', () => {
  expect(readFileSync(generatedPath, 'utf8')).toBe(
    renderContractModule(readFileSync(yamlPath, 'utf8')),
  );
});

// Values shaped like NewPet bodies, right and wrong, within what JSON numbers can carry exactly.
const field = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('available', 'pending', 'sold'),
);
const body = fc.oneof(
  fc.record({ name: field, categoryId: field, status: field }, { requiredKeys: [] }),
  fc.record(
    {
      name: fc.string(),
      categoryId: fc.maxSafeInteger(),
      status: fc.constantFrom('available', 'pending', 'sold'),
    },
    { requiredKeys: ['name', 'categoryId'] },
  ),
  fc.jsonValue(),
);

test('the contract validator agrees with Ajv on NewPet and Pet for any JSON value', () => {
  fc.assert(
    fc.property(body, fc.maxSafeNat(), (value, id) => {
      expect(checkNewPet(value).length === 0).toBe(ajvNewPet(value));
      const pet =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? { ...value, id }
          : value;
      expect(checkPet(pet).length === 0).toBe(ajvPet(pet));
    }),
    { seed: 20261122, numRuns: 2000 },
  );
});

test('the store checks the pets it is given against the contract Pet schema', () => {
  const valid = { id: 1, name: 'Rex', categoryId: 2, status: 'sold' };
  expect(snapshotProblem({ pets: [valid], nextId: 2 })).toBeUndefined();
  expect(snapshotProblem({ pets: [valid, { name: 'Rex' }], nextId: 2 })).toMatch(
    /^snapshot\.pets\[1\]: .*\bid\b/,
  );
});

test('the validator refuses a keyword it does not implement instead of ignoring it', () => {
  expect(() => compileSchema({ type: 'string', pattern: '^a' })).toThrow(
    /unsupported keyword "pattern"/,
  );
});

test('the seed pets are valid Pets, at least 150, in every status and several categories', () => {
  expect(pets.length).toBeGreaterThanOrEqual(150);
  for (const pet of pets) expect(ajvPet(pet), JSON.stringify(pet)).toBe(true);
  expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(schemas.PetStatus.enum));
  expect(new Set(pets.map((pet) => pet.categoryId)).size).toBeGreaterThanOrEqual(4);
  expect(new Set(pets.map((pet) => pet.id)).size).toBe(pets.length);
});
