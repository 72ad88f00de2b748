/**
 * A validator for the small subset of JSON Schema that openapi/petstore.yaml uses, read straight
 * from the document. It exists, rather than Ajv, because int64 values beyond 2^53 arrive here as
 * `bigint` (see lossless-json.ts) and because it runs in the browser without `new Function`.
 * Any keyword it does not understand is a compile-time error, so the document cannot silently
 * outgrow it.
 */

/** One reason a value does not match its schema. */
export interface SchemaIssue {
  /** JSON-pointer-like location of the offending value, `''` for the root. */
  readonly path: string;
  readonly message: string;
}

/** Checks a value and lists every reason it does not match; empty means valid. */
export type SchemaCheck = (value: unknown, path?: string) => SchemaIssue[];

const ANNOTATIONS = new Set([
  'description',
  'default',
  'title',
  'example',
  'examples',
  'deprecated',
]);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

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

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return isInteger(value);
    case 'number':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      throw new Error(`schema-validator: unsupported type "${type}"`);
  }
}

function formatRange(format: string): readonly [bigint, bigint] | undefined {
  if (format === 'int64') return [INT64_MIN, INT64_MAX];
  if (format === 'int32') return [INT32_MIN, INT32_MAX];
  return undefined;
}

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
        checks.push((value, path = '') =>
          matchesType(type, value)
            ? []
            : [{ path, message: `must be ${article(type)} ${type}, got ${jsonTypeOf(value)}` }],
        );
        break;
      }
      case 'enum': {
        const allowed = argument as readonly unknown[];
        checks.push((value, path = '') =>
          allowed.includes(value)
            ? []
            : [
                {
                  path,
                  message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
                },
              ],
        );
        break;
      }
      case 'format': {
        const range = formatRange(String(argument));
        if (range === undefined) break; // Formats are annotations unless we know how to assert them.
        const [min, max] = range;
        checks.push((value, path = '') => {
          if (!isInteger(value)) return [];
          const big = BigInt(value);
          return big < min || big > max
            ? [{ path, message: `must fit in ${String(argument)} (${min} to ${max})` }]
            : [];
        });
        break;
      }
      case 'minimum':
      case 'maximum': {
        const bound = Number(argument);
        const isMin = keyword === 'minimum';
        checks.push((value, path = '') => {
          if (typeof value !== 'number' && typeof value !== 'bigint') return [];
          const ok = isMin ? value >= bound : value <= bound;
          return ok ? [] : [{ path, message: `must be ${isMin ? '>=' : '<='} ${bound}` }];
        });
        break;
      }
      case 'minLength':
      case 'maxLength': {
        const bound = Number(argument);
        const isMin = keyword === 'minLength';
        checks.push((value, path = '') => {
          if (typeof value !== 'string') return [];
          // Characters as JSON Schema counts them: code points, not UTF-16 units.
          const length = [...value].length;
          const ok = isMin ? length >= bound : length <= bound;
          return ok
            ? []
            : [{ path, message: `must be at ${isMin ? 'least' : 'most'} ${bound} characters` }];
        });
        break;
      }
      case 'required': {
        const names = argument as readonly string[];
        checks.push((value, path = '') => {
          if (!matchesType('object', value)) return [];
          return names
            .filter((name) => !Object.hasOwn(value as object, name))
            .map((name) => ({ path: at(path, name), message: 'is required' }));
        });
        break;
      }
      case 'properties': {
        const properties = Object.entries(argument as Record<string, Schema>).map(
          ([name, sub]) => [name, compileSchema(sub)] as const,
        );
        checks.push((value, path = '') => {
          if (!matchesType('object', value)) return [];
          const record = value as Record<string, unknown>;
          return properties.flatMap(([name, check]) =>
            Object.hasOwn(record, name) ? check(record[name], at(path, name)) : [],
          );
        });
        break;
      }
      case 'items': {
        const check = compileSchema(argument as Schema);
        checks.push((value, path = '') =>
          Array.isArray(value) ? value.flatMap((item, index) => check(item, at(path, index))) : [],
        );
        break;
      }
      case 'allOf': {
        const parts = (argument as readonly Schema[]).map(compileSchema);
        checks.push((value, path = '') => parts.flatMap((check) => check(value, path)));
        break;
      }
      default:
        throw new Error(`schema-validator: unsupported keyword "${keyword}"`);
    }
  }
  return (value, path = '') => {
    const issues: SchemaIssue[] = [];
    for (const check of checks) {
      issues.push(...check(value, path));
      // A value of the wrong type makes every other keyword's message noise.
      if (issues.length > 0 && check === checks[0] && 'type' in schema) break;
    }
    return issues;
  };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
