/**
 * The fields of NewPet and Pet as the OpenAPI document declares them (the generated module, every
 * `$ref` inlined), so the harness's arbitraries, model and round-trip checks follow the document:
 * a field added there is generated, sent and compared without another list to edit.
 */
import { openapiDocument } from '../../mock/internal/entry.ts';

/** The part of JSON Schema the harness derives values from (see arbitraries/field-values.ts). */
export interface FieldSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly items?: FieldSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly required?: readonly string[];
  readonly allOf?: readonly FieldSchema[];
  readonly anyOf?: readonly FieldSchema[];
  readonly oneOf?: readonly FieldSchema[];
}

/** One property of an object schema, in the document's order. */
export interface DocumentField {
  readonly name: string;
  readonly schema: FieldSchema;
  /** Listed in the object's `required`. */
  readonly required: boolean;
}

/** The properties an object schema declares, its own and those of its `allOf` parts, in order. */
export function fieldsOf(schema: FieldSchema): DocumentField[] {
  const fields: DocumentField[] = [];
  const required = new Set<string>();
  const visit = (part: FieldSchema): void => {
    for (const name of part.required ?? []) required.add(name);
    for (const [name, sub] of Object.entries(part.properties ?? {}))
      if (!fields.some((field) => field.name === name))
        fields.push({ name, schema: sub, required: false });
    for (const inner of part.allOf ?? []) visit(inner);
  };
  visit(schema);
  return fields.map((field) => ({ ...field, required: required.has(field.name) }));
}

const schemas = openapiDocument.components.schemas as unknown as Readonly<
  Record<'NewPet' | 'Pet', FieldSchema>
>;

/** NewPet's fields (`name`, `categoryId`, `status`, and any the document adds), in its order. */
export const newPetFields: readonly DocumentField[] = fieldsOf(schemas.NewPet);

/** The names of NewPet's fields, in the document's order. */
export const newPetFieldNames: readonly string[] = newPetFields.map((field) => field.name);

/** The NewPet fields a body must carry (`name`, `categoryId`). */
export const requiredNewPetFields: readonly string[] = newPetFields
  .filter((field) => field.required)
  .map((field) => field.name);

/**
 * Every field a Pet carries: the service's own first (`id`), then NewPet's, the order answers
 * show them in. The round-trip checks and the model compare all of them.
 */
export const petFieldNames: readonly string[] = (() => {
  const names = fieldsOf(schemas.Pet).map((field) => field.name);
  const own = names.filter((name) => !newPetFieldNames.includes(name));
  return [...own, ...names.filter((name) => newPetFieldNames.includes(name))];
})();
