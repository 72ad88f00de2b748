/** Compiled checks for the contract's schemas, read from the generated OpenAPI document. */
import { openapiDocument } from './openapi.generated.ts';
import { compileSchema, type SchemaIssue } from './schema-validator.ts';
import type { OperationId } from './types.ts';

const schemas = openapiDocument.components.schemas;

/** Checks a request body against NewPet. */
export const checkNewPet = compileSchema(schemas.NewPet);
/** Checks a value against Pet. */
export const checkPet = compileSchema(schemas.Pet);
/** The fields NewPet defines, from the document. */
export const newPetFields: readonly string[] = Object.keys(schemas.NewPet.properties);
/** The fields a Pet carries, in the order answers show them: its id, then NewPet's. */
export const petFields: readonly string[] = ['id', ...newPetFields];

/**
 * `value` with only the given fields that are set, in their order: a field the document adds is
 * kept without another list to edit, and anything else a body carried is dropped.
 */
export function onlyFields<T extends object>(value: T, fields: readonly string[]): T {
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const field of fields) if (source[field] !== undefined) copy[field] = source[field];
  return copy as T;
}
/** The PetStatus values, in the document's order. */
export const petStatuses = schemas.PetStatus.enum;

const limitSchema = openapiDocument.components.parameters.limit.schema;
/** Page size bounds of listPets, from the document's `limit` parameter (1, 100, default 20). */
export const listLimits = {
  min: limitSchema.minimum,
  max: limitSchema.maximum,
  default: limitSchema.default,
} as const;

/** Every operationId of the document, in its order (listPets, createPet, getPet). */
export const operationIds: readonly OperationId[] = Object.values(openapiDocument.paths).flatMap(
  (item) =>
    Object.values(item).flatMap((operation) =>
      typeof operation === 'object' && operation !== null && 'operationId' in operation
        ? [operation.operationId as OperationId]
        : [],
    ),
);

/** Formats issues as one readable sentence, e.g. `name is required; categoryId must be an integer`. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues
    .map(
      ({ path, message }) =>
        `${path === '' ? 'body' : path.slice(1).replaceAll('/', '.')} ${message}`,
    )
    .join('; ');
}
