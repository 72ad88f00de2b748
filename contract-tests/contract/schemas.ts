/**
 * Validators for the interface's shapes, compiled with Ajv from openapi/petstore.yaml: the
 * document is the source of truth, nothing here restates a field.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';

/** Path of the OpenAPI document the harness (and Prism) read. */
export const openapiPath = new URL('../../openapi/petstore.yaml', import.meta.url);

const documentId = 'https://petstore.contract/openapi.json';

function compileComponents(): (name: string) => ValidateFunction {
  const document = parse(readFileSync(openapiPath, 'utf8')) as { components: object };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  ajv.addSchema({ $id: documentId, components: document.components });
  return (name) => {
    const validate = ajv.getSchema(`${documentId}#/components/schemas/${name}`);
    if (validate === undefined)
      throw new Error(`petstore-contract: openapi/petstore.yaml has no schema ${name}`);
    return validate;
  };
}

const schema = compileComponents();

/** A shape check: `undefined` when the value matches, else a one-line reason. */
export type ShapeCheck = (value: unknown) => string | undefined;

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 3)
    .map((error) => `${error.instancePath === '' ? 'body' : error.instancePath} ${error.message}`)
    .join('; ');
}

function shapeCheck(name: string): ShapeCheck {
  const validate = schema(name);
  return (value) => (validate(value) ? undefined : `not a ${name}: ${describe(validate.errors)}`);
}

/** Checks a value against NewPet (a create's body). */
export const checkNewPet = shapeCheck('NewPet');
/** Checks a value against Pet. */
export const checkPet = shapeCheck('Pet');
/** Checks a value against Pets (an array of Pet). */
export const checkPets = shapeCheck('Pets');
/** Checks a value against Error. */
export const checkError = shapeCheck('Error');
