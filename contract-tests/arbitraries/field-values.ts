/**
 * Values for a field, derived from its JSON Schema in the OpenAPI document: plain valid values
 * (type, enum, bounds, lengths, format) and values the schema refuses (wrong type, outside the
 * enum, too long, out of range). Integers are `bigint`, written exactly (http/exact-json.ts).
 */
import fc from 'fast-check';
import type { DocumentField, FieldSchema } from '../contract/pet-fields.ts';

/** The range a `format` gives an integer, when it gives one. */
function formatRange(format: string | undefined): readonly [bigint, bigint] | undefined {
  if (format === 'int64') return [-(2n ** 63n), 2n ** 63n - 1n];
  if (format === 'int32') return [-(2n ** 31n), 2n ** 31n - 1n];
  return undefined;
}

/** The inclusive bounds of an integer schema: `minimum`, `exclusiveMinimum`, the format's range. */
function integerBounds(schema: FieldSchema): { min?: bigint; max?: bigint } {
  const range = formatRange(schema.format);
  const mins = [
    schema.minimum === undefined ? undefined : BigInt(Math.ceil(schema.minimum)),
    schema.exclusiveMinimum === undefined
      ? undefined
      : BigInt(Math.floor(schema.exclusiveMinimum)) + 1n,
    range?.[0],
  ].filter((bound) => bound !== undefined);
  const maxes = [
    schema.maximum === undefined ? undefined : BigInt(Math.floor(schema.maximum)),
    schema.exclusiveMaximum === undefined
      ? undefined
      : BigInt(Math.ceil(schema.exclusiveMaximum)) - 1n,
    range?.[1],
  ].filter((bound) => bound !== undefined);
  let min: bigint | undefined;
  let max: bigint | undefined;
  for (const bound of mins) if (min === undefined || bound > min) min = bound;
  for (const bound of maxes) if (max === undefined || bound < max) max = bound;
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function types(schema: FieldSchema): readonly string[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : schema.type;
}

/** Plain text: a letter or digit, then letters, digits and spaces, within the length bounds. */
function plainString(schema: FieldSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(20, min);
  if (max === 0) return fc.constant('');
  if (schema.pattern !== undefined)
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((text) => [...text].length >= min && [...text].length <= max);
  const rest = `{${Math.max(0, min - 1)},${Math.min(max, Math.max(20, min)) - 1}}`;
  return fc.stringMatching(new RegExp(`^[A-Za-z0-9][A-Za-z0-9 ]${rest}$`));
}

function formattedString(format: string | undefined): fc.Arbitrary<string> | undefined {
  const dates = fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  });
  switch (format) {
    case 'date-time':
      return dates.map((date) => date.toISOString());
    case 'date':
      return dates.map((date) => date.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    case 'uri':
    case 'url':
      return fc.webUrl();
    default:
      return undefined;
  }
}

/**
 * Plain valid values of `schema`: an `enum` member, text within its lengths (or of its format),
 * a small positive integer within its bounds (1 to 1000 when they allow), and so on.
 * @example validValue({ type: 'string', maxLength: 40 }) // 'Rex 2', never 41 characters
 */
export function validValue(schema: FieldSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined) return fc.oneof(...branches.map(validValue));
  const [first, ...others] = types(schema);
  if (first !== undefined && others.length > 0)
    return fc.oneof(...[first, ...others].map((type) => validValue({ ...schema, type })));
  switch (first) {
    case 'integer': {
      const { min, max } = integerBounds(schema);
      const low = min === undefined || min < 1n ? 1n : min;
      const high = max === undefined || max > 1000n ? 1000n : max;
      if (low <= high) return fc.bigInt(low, high);
      return fc.bigInt({
        ...(min === undefined ? {} : { min }),
        ...(max === undefined ? {} : { max }),
      });
    }
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { max: schema.maximum }),
        ...(schema.exclusiveMinimum === undefined
          ? {}
          : { min: schema.exclusiveMinimum, minExcluded: true }),
        ...(schema.exclusiveMaximum === undefined
          ? {}
          : { max: schema.exclusiveMaximum, maxExcluded: true }),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? { type: 'string' }), {
        minLength: schema.minItems ?? 0,
        maxLength: schema.maxItems ?? Math.max(3, schema.minItems ?? 0),
      });
    case 'object':
      return objectValue(fieldsOfObject(schema), {});
    default:
      return formattedString(schema.format) ?? plainString(schema);
  }
}

function fieldsOfObject(schema: FieldSchema): DocumentField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, sub]) => ({
    name,
    schema: sub,
    required: required.has(name),
  }));
}

/**
 * One arbitrary per field, in the fields' order: `overrides[name]` where given, else plain valid
 * values of its schema; an optional field is `undefined` (left out) some of the time.
 */
export function fieldArbitraries(
  fields: readonly DocumentField[],
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>,
): fc.Arbitrary<unknown>[] {
  return fields.map((field) => {
    const values = overrides[field.name] ?? validValue(field.schema);
    return field.required ? values : fc.option(values, { nil: undefined });
  });
}

/** The fields' names paired with `values` (as `fieldArbitraries` made them), `undefined` left out. */
export function zipFields(
  fields: readonly DocumentField[],
  values: readonly unknown[],
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  fields.forEach((field, index) => {
    if (values[index] !== undefined) object[field.name] = values[index];
  });
  return object;
}

/**
 * Objects with the given fields: each from `overrides` or derived from its schema, optional ones
 * sometimes left out. Fields in the given order, as `fc.record` draws them.
 */
export function objectValue(
  fields: readonly DocumentField[],
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>,
): fc.Arbitrary<Record<string, unknown>> {
  const arbitraries = fieldArbitraries(fields, overrides);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  fields.forEach((field, index) => {
    model[field.name] = arbitraries[index] as fc.Arbitrary<unknown>;
  });
  return fc.record(model).map((values) =>
    zipFields(
      fields,
      fields.map((field) => values[field.name]),
    ),
  );
}

const notAString: readonly unknown[] = [42, true, null, [], {}, ['a']];
const notAnInteger: readonly unknown[] = ['5', 1.5, true, null, [], {}, ''];
const notANumber: readonly unknown[] = ['5', true, null, [], {}, ''];

function capitalised(text: string): string {
  return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
}

/** Values outside a string `enum`: its members in another case, a word it does not list, other types. */
function outsideEnum(allowed: readonly unknown[]): fc.Arbitrary<unknown> {
  const listed = (value: unknown) =>
    allowed.some((member) => JSON.stringify(member) === JSON.stringify(value));
  const first = allowed[0];
  const last = allowed[allowed.length - 1];
  const constants = [
    ...(typeof first === 'string' ? [capitalised(first)] : []),
    ...(typeof last === 'string' ? [last.toUpperCase()] : []),
    // A word no PetStatus-like enum of the document lists ('adopted' is not a PetStatus).
    'adopted',
    '',
    1,
    null,
    true,
    [last],
  ].filter((value) => !listed(value));
  return fc.oneof(
    fc.constantFrom(...constants),
    fc.stringMatching(/^[a-z]{1,12}$/).filter((value) => !listed(value)),
  );
}

/**
 * Values `schema` refuses, or `undefined` when it refuses none the harness knows how to make
 * (no type, a pattern, a combination).
 * @example invalidValue({ type: 'string', maxLength: 40 }) // 42, null, ... or 41 to 45 characters
 */
export function invalidValue(schema: FieldSchema): fc.Arbitrary<unknown> | undefined {
  if (schema.enum !== undefined) return outsideEnum(schema.enum);
  const [type, ...others] = types(schema);
  if (others.length > 0 || schema.anyOf !== undefined || schema.oneOf !== undefined)
    return undefined;
  switch (type) {
    case 'string': {
      const wrong: fc.Arbitrary<unknown>[] = [fc.constantFrom(...notAString)];
      if (schema.maxLength !== undefined)
        wrong.push(fc.string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 5 }));
      if (schema.minLength !== undefined && schema.minLength > 0)
        wrong.push(fc.string({ maxLength: schema.minLength - 1 }));
      return wrong.length === 1 ? wrong[0] : fc.oneof(...wrong);
    }
    case 'integer': {
      const { min, max } = integerBounds(schema);
      // Past each bound, then far past any int64 (the JSON number a double cannot hold).
      const outside = [
        ...(max === undefined ? [] : [max + 1n]),
        ...(min === undefined ? [] : [min - 1n]),
        ...(max !== undefined && max < 10n ** 30n ? [10n ** 30n] : []),
        ...(max === undefined && min !== undefined && min > -(10n ** 30n) ? [-(10n ** 30n)] : []),
      ];
      return fc.constantFrom(...notAnInteger, ...outside);
    }
    case 'number': {
      const outside = [
        ...(schema.maximum === undefined ? [] : [schema.maximum + 1]),
        ...(schema.minimum === undefined ? [] : [schema.minimum - 1]),
      ];
      return fc.constantFrom(...notANumber, ...outside);
    }
    case 'boolean':
      return fc.constantFrom<unknown>('true', 1, 0, null, [], {}, '');
    case 'array':
      return fc.constantFrom<unknown>('a', 1, null, {});
    case 'object':
      return fc.constantFrom<unknown>('a', 1, null, []);
    case 'null':
      return fc.constantFrom<unknown>('null', 0, false, {}, []);
    default:
      return undefined;
  }
}
