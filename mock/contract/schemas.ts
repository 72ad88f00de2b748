/**
 * Compiled checks for the contract's schemas, read from the generated OpenAPI document, and a
 * Standard Schema view of Pet for @msw/data.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { openapiDocument } from './openapi.generated.ts';
import { compileSchema, type SchemaIssue } from './schema-validator.ts';
import type { Pet } from './types.ts';

const schemas = openapiDocument.components.schemas;

/** Checks a request body against NewPet. */
export const checkNewPet = compileSchema(schemas.NewPet);
/** Checks a value against Pet. */
export const checkPet = compileSchema(schemas.Pet);
/** Checks a value against Error. */
export const checkErrorBody = compileSchema(schemas.Error);
/** The PetStatus values, in the document's order. */
export const petStatuses = schemas.PetStatus.enum;

/** Formats issues as one readable sentence, e.g. `name is required; categoryId must be an integer`. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map(
      ({ path, message }) =>
        `${path === '' ? 'body' : path.slice(1).replaceAll('/', '.')} ${message}`,
    )
    .join('; ');
}

/** Pet as a Standard Schema, so the @msw/data collection validates what it stores against the contract. */
export const petStandardSchema: StandardSchemaV1<Pet, Pet> = {
  '~standard': {
    version: 1,
    vendor: 'petstore-openapi',
    validate(value) {
      const issues = checkPet(value);
      if (issues.length === 0) return { value: value as Pet };
      return {
        issues: issues.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })),
      };
    },
  },
};
