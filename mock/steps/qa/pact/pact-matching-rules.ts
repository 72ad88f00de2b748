/**
 * Pact matching rules read from the OpenAPI document's schema of a recorded body or header: a
 * field gets a type matcher, an enum or a date format a regex, an integer `integer`, an array a
 * `min` of 1 when it had items. Nothing here re-declares the Pet shape: a field the document adds
 * is covered without an edit. Body paths are written as the Pact tools read them (pact-path.ts):
 * `$['first name']`, never `$.first name`, which the official Verifier refuses.
 */
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import { openapiDocument } from '../../../base/contract/openapi.generated.ts';
import { fieldPath } from './pact-path.ts';

/** One Pact V4 matcher (`{ match: 'type' }`, `{ match: 'regex', regex }`, ...). */
type PactMatcher = Readonly<Record<string, unknown>> & { readonly match: string };

/** Rules for one category (`body`, `header`, ...): a path or name, and the matchers it must meet. */
export type PactRules = Record<string, { combine: 'AND'; matchers: PactMatcher[] }>;

type Json = Record<string, unknown>;

/** A rule of one matcher, as every rule the recorder writes is. */
export const ruleOf = (matcher: PactMatcher) => ({ combine: 'AND' as const, matchers: [matcher] });

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Regexes for the string formats the document may use. */
const formatRegex: Readonly<Record<string, string>> = {
  'date-time': '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
  date: '^\\d{4}-\\d{2}-\\d{2}$',
  uuid: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};

/** The operation object of an operationId, read from the document. */
function operationOf(operationId: string): Json | undefined {
  for (const item of Object.values(openapiDocument.paths as Json)) {
    if (!isJsonObject(item)) continue;
    for (const operation of Object.values(item))
      if (isJsonObject(operation) && operation.operationId === operationId) return operation;
  }
  return undefined;
}

/**
 * An error status the document does not list for the operation (a forced or chaos 5xx): still
 * an Error body with the rate-limit headers, as every error is (interface: Errors; Limits).
 */
const unlistedError: Json = {
  headers: {
    'X-RateLimit-Limit': openapiDocument.components.headers['X-RateLimit-Limit'],
    'X-RateLimit-Remaining': openapiDocument.components.headers['X-RateLimit-Remaining'],
    'X-RateLimit-Reset': openapiDocument.components.headers['X-RateLimit-Reset'],
  },
  content: { 'application/json': { schema: openapiDocument.components.schemas.Error } },
};

/** The document's response for an operation and status, else `unlistedError` for an error. */
function responseOf(operationId: string, status: number): Json | undefined {
  const responses = operationOf(operationId)?.responses;
  if (!isJsonObject(responses)) return undefined;
  const found = responses[String(status)] ?? (status >= 400 ? unlistedError : undefined);
  return isJsonObject(found) ? found : undefined;
}

/** `allOf` folded into one object schema (the document's Pet is NewPet plus `id`). */
function flatten(schema: Json): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const properties: Json = {};
  for (const part of schema.allOf) {
    if (!isJsonObject(part)) continue;
    const flat = flatten(part);
    if (isJsonObject(flat.properties)) Object.assign(properties, flat.properties);
  }
  return { type: 'object', properties };
}

function leafMatcher(schema: Json): PactMatcher {
  if (Array.isArray(schema.enum))
    return {
      match: 'regex',
      regex: `^(${schema.enum.map((v) => escapeRegex(String(v))).join('|')})$`,
    };
  const format = typeof schema.format === 'string' ? formatRegex[schema.format] : undefined;
  if (format !== undefined) return { match: 'regex', regex: format };
  if (schema.type === 'integer') return { match: 'integer' };
  if (schema.type === 'number') return { match: 'number' };
  return { match: 'type' };
}

/** Adds the rules of `value` at `path` against `schema` (walks objects and arrays as recorded). */
function addBodyRules(rules: PactRules, path: string, schema: Json, value: unknown): void {
  const flat = flatten(schema);
  if (Array.isArray(value)) {
    const items = isJsonObject(flat.items) ? flat.items : {};
    // An empty list was recorded for a state with none: it must stay empty (no rule).
    if (value.length === 0) return;
    rules[path] = ruleOf({ match: 'type', min: 1 });
    addBodyRules(rules, `${path}[*]`, items, value[0]);
    return;
  }
  if (isJsonObject(value)) {
    const properties = isJsonObject(flat.properties) ? flat.properties : {};
    for (const [field, fieldValue] of Object.entries(value)) {
      const fieldSchema = Object.hasOwn(properties, field) ? properties[field] : undefined;
      // A key no path can name (empty, or holding `'`) gets no rule, nor does what it holds:
      // the Pact tools then compare its value as recorded, and still load the file.
      const at = fieldPath(path, field);
      if (at !== undefined)
        addBodyRules(rules, at, isJsonObject(fieldSchema) ? fieldSchema : {}, fieldValue);
    }
    return;
  }
  if (value !== undefined) rules[path] = ruleOf(leafMatcher(flat));
}

/**
 * The body rules of a recorded JSON body: an operation's request body (`status` omitted), or its
 * answer with this status, read from the `application/json` schema the document gives it.
 */
export function bodyRules(operationId: string, body: unknown, status?: number): PactRules {
  const content =
    status === undefined
      ? (operationOf(operationId)?.requestBody as Json | undefined)?.content
      : responseOf(operationId, status)?.content;
  const schema =
    isJsonObject(content) && isJsonObject(content['application/json'])
      ? (content['application/json'] as Json).schema
      : undefined;
  const rules: PactRules = {};
  addBodyRules(rules, '$', isJsonObject(schema) ? schema : {}, body);
  return rules;
}

/**
 * The document's headers of an operation's answer with this status, each with the rule its
 * schema gives (integers: digits; strings: any non-empty value), by name as the document writes it.
 */
export function responseHeaderRules(operationId: string, status: number): PactRules {
  const headers = responseOf(operationId, status)?.headers;
  const rules: PactRules = {};
  if (!isJsonObject(headers)) return rules;
  for (const [name, header] of Object.entries(headers)) {
    const schema = isJsonObject(header) && isJsonObject(header.schema) ? header.schema : {};
    rules[name] = ruleOf({
      match: 'regex',
      regex: schema.type === 'integer' ? '^-?\\d+$' : '^.+$',
    });
  }
  return rules;
}
