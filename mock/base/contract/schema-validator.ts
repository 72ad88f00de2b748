/**
 * A validator for the small subset of JSON Schema that openapi/petstore.yaml uses, read straight
 * from the document. It exists, rather than Ajv, because int64 values beyond 2^53 arrive here as
 * `bigint` (see lossless-json.ts) and because it runs in the browser without `new Function`.
 * Any keyword it does not understand is a compile-time error, so the document cannot silently
 * outgrow it.
 */

import { isJsonObject } from './lossless-json.ts';

/** One reason a value does not match its schema. */
export interface SchemaIssue {
  /** JSON-pointer-like location of the offending value, `''` for the root. */
  readonly path: string;
  readonly message: string;
}

/** Checks a value and lists every reason it does not match; empty means valid. */
export type SchemaCheck = (value: unknown, path?: string) => readonly SchemaIssue[];

/**
 * What every check of a valid value returns: one frozen array. The checks allocate only for
 * issues, since a create validates its body on every request (bench/optimisations.md).
 */
const valid: readonly SchemaIssue[] = Object.freeze([]);

/** The issues of several checks in order: `valid` itself when none found any. */
function joined(into: SchemaIssue[] | undefined, found: readonly SchemaIssue[]) {
  if (found.length === 0) return into;
  if (into === undefined) return [...found];
  into.push(...found);
  return into;
}

const ANNOTATIONS = new Set([
  'description',
  'default',
  'title',
  'example',
  'examples',
  'deprecated',
]);

type Schema = Readonly<Record<string, unknown>>;

/** Describes a value's JSON type for error messages (`null`, `array`, `integer`...). */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

/** What each JSON Schema type accepts. */
const types = new Map<string, (value: unknown) => boolean>([
  ['object', isJsonObject],
  ['array', Array.isArray],
  ['integer', isInteger],
  ['number', (value) => typeof value === 'bigint' || Number.isFinite(value)],
  ['string', (value) => typeof value === 'string'],
  ['boolean', (value) => typeof value === 'boolean'],
  ['null', (value) => value === null],
]);

/** The integer formats asserted, and their ranges; other formats are annotations. */
const formatRanges = new Map<string, readonly [bigint, bigint]>([
  ['int64', [-(2n ** 63n), 2n ** 63n - 1n]],
  ['int32', [-(2n ** 31n), 2n ** 31n - 1n]],
]);

function at(path: string, key: string | number): string {
  return `${path}/${String(key)}`;
}

/** Compiles a schema of the contract into a reusable check; throws on keywords it cannot honour. */
export function compileSchema(schema: Schema): SchemaCheck {
  const checks: SchemaCheck[] = [];
  for (const [keyword, argument] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case 'type': {
        const type = String(argument);
        const matches = types.get(type);
        if (matches === undefined) throw new Error(`schema-validator: unsupported type "${type}"`);
        const expected = `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}, got`;
        checks.push((value, path = '') =>
          matches(value) ? valid : [{ path, message: `${expected} ${jsonTypeOf(value)}` }],
        );
        break;
      }
      case 'enum': {
        const allowed = argument as readonly unknown[];
        const message = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
        checks.push((value, path = '') => (allowed.includes(value) ? valid : [{ path, message }]));
        break;
      }
      case 'format': {
        const range = formatRanges.get(String(argument));
        if (range === undefined) break;
        const [min, max] = range;
        // A safe integer compares exactly with any double: no BigInt for the common case.
        const [minNumber, maxNumber] = [Number(min), Number(max)];
        checks.push((value, path = '') => {
          if (!isInteger(value)) return valid;
          if (Number.isSafeInteger(value) && value >= minNumber && value <= maxNumber) return valid;
          const big = BigInt(value);
          return big < min || big > max
            ? [{ path, message: `must fit in ${String(argument)} (${min} to ${max})` }]
            : valid;
        });
        break;
      }
      case 'minimum':
      case 'maximum': {
        const bound = Number(argument);
        const isMin = keyword === 'minimum';
        checks.push((value, path = '') => {
          if (typeof value !== 'number' && typeof value !== 'bigint') return valid;
          const ok = isMin ? value >= bound : value <= bound;
          return ok ? valid : [{ path, message: `must be ${isMin ? '>=' : '<='} ${bound}` }];
        });
        break;
      }
      case 'minLength':
      case 'maxLength': {
        const bound = Number(argument);
        const isMin = keyword === 'minLength';
        checks.push((value, path = '') => {
          if (typeof value !== 'string') return valid;
          // Characters as JSON Schema counts them: code points, not UTF-16 units.
          const length = [...value].length;
          const ok = isMin ? length >= bound : length <= bound;
          return ok
            ? valid
            : [{ path, message: `must be at ${isMin ? 'least' : 'most'} ${bound} characters` }];
        });
        break;
      }
      case 'required': {
        const names = argument as readonly string[];
        checks.push((value, path = '') => {
          if (!isJsonObject(value)) return valid;
          let issues: SchemaIssue[] | undefined;
          for (const name of names)
            if (!Object.hasOwn(value as object, name))
              issues = joined(issues, [{ path: at(path, name), message: 'is required' }]);
          return issues ?? valid;
        });
        break;
      }
      case 'properties': {
        // Each property's path under the root made once: most values checked are the root.
        const properties = Object.entries(argument as Record<string, Schema>).map(
          ([name, sub]) => [name, compileSchema(sub), at('', name)] as const,
        );
        checks.push((value, path = '') => {
          if (!isJsonObject(value)) return valid;
          const record = value as Record<string, unknown>;
          let issues: SchemaIssue[] | undefined;
          for (const [name, check, rootPath] of properties)
            if (Object.hasOwn(record, name))
              issues = joined(issues, check(record[name], path === '' ? rootPath : at(path, name)));
          return issues ?? valid;
        });
        break;
      }
      case 'items': {
        const check = compileSchema(argument as Schema);
        checks.push((value, path = '') => {
          if (!Array.isArray(value)) return valid;
          let issues: SchemaIssue[] | undefined;
          for (const [index, item] of value.entries())
            issues = joined(issues, check(item, at(path, index)));
          return issues ?? valid;
        });
        break;
      }
      case 'allOf':
        checks.push(every((argument as readonly Schema[]).map(compileSchema), false));
        break;
      default:
        throw new Error(`schema-validator: unsupported keyword "${keyword}"`);
    }
  }
  return every(checks, 'type' in schema);
}

/**
 * The issues of every check in order; with `typeFirst`, a failed first check (the type) stops
 * the rest: a value of the wrong type makes every other keyword's message noise.
 */
function every(checks: readonly SchemaCheck[], typeFirst: boolean): SchemaCheck {
  return (value, path = '') => {
    let issues: SchemaIssue[] | undefined;
    for (const check of checks) {
      issues = joined(issues, check(value, path));
      if (typeFirst && issues !== undefined && check === checks[0]) break;
    }
    return issues ?? valid;
  };
}
