/**
 * Reads a Pact V4 file for verify-pact, which holds the real key, so the file is not trusted:
 * every field the replay reads is checked before one request is sent, and a field that is wrong
 * is one line naming it (`interactions[2].providerStates must be an array of {name, params},
 * got a string`). A request must be one of the interface's operations (`GET /pets`,
 * `POST /pets`, `GET /pets/{petId}`, and `HEAD` of the two reads) at a plain path under the
 * base URL: no dot segments (encoded or not), no absolute URL, no other host, no header that
 * belongs to the connection. A matcher's regex must compile; how long it may run is
 * match-pact.ts's to bound.
 *
 * It refuses what the official Pact tools refuse to load (@pact-foundation/pact's Verifier reads
 * every pact with the pact_models crate): a body rule's or generator's path they cannot parse
 * (`$.first name`: mock/steps/qa/pact/pact-path.ts parses as they do), in the request as in the response,
 * and a string or key holding a lone surrogate (serde_json cannot parse the file).
 */
import {
  isJsonObject,
  PactPathError,
  type PactPathToken,
  parsePactPath,
} from '../../mock/internal/entry.ts';
import { operationOf } from '../contract/interface-facts.ts';
import { dotSegmentProblem } from '../http/plain-path.ts';

/** A field of the pact file that is not what the replay needs; its message names the field. */
export class PactFileError extends Error {
  override readonly name = 'PactFileError';
}

/** A Pact matcher, as the replay applies it. */
export interface Matcher {
  readonly match: string;
  readonly regex?: string;
  readonly min?: number;
  readonly max?: number;
}

/** The rules of one category (`header`, `body`): a name or path and its matchers. */
type Rules = Readonly<Record<string, { readonly matchers: readonly Matcher[] }>>;

/** A body rule: its path as written, the path's tokens, and its matchers. */
export interface BodyRule {
  readonly path: string;
  readonly tokens: readonly PactPathToken[];
  readonly matchers: readonly Matcher[];
}

/** The expected response of an interaction. */
export interface ExpectedResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: { readonly content?: unknown };
  readonly matchingRules?: { readonly header?: Rules; readonly body?: readonly BodyRule[] };
}

/** One HTTP interaction of a pact file, checked. */
export interface Interaction {
  readonly description: string;
  readonly providerStates: readonly {
    readonly name: string;
    readonly params: Readonly<Record<string, unknown>>;
  }[];
  readonly request: {
    readonly method: 'GET' | 'HEAD' | 'POST';
    /** Relative to the base URL: `/pets` or `/pets/<id>`. */
    readonly path: string;
    readonly query: Readonly<Record<string, readonly string[]>>;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: { readonly content?: unknown };
    /** Whether the pact asks for the key in Authorization (a ProviderState generator). */
    readonly sendsKey: boolean;
  };
  readonly response: ExpectedResponse;
}

/** Headers a pact may not set: they belong to the connection, not to the request. */
const connectionHeaders = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A value's kind in a message: `a string`, `an array`, `null`... */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`}`;
}

function fail(field: string, wanted: string, value: unknown): never {
  throw new PactFileError(`${field} must be ${wanted}, got ${kindOf(value)}`);
}

/** Why a path is not one the replay may send under the base URL, or undefined. */
function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/') || path.startsWith('//'))
    return 'must start with one "/": a path relative to the base URL, never an absolute URL or another host';
  // Whitespace and the other characters below 0x21 (control characters), `\`, `?`, `#`, DEL.
  if ([...path].some((char) => char <= ' ' || '\\?#\u007f'.includes(char)))
    return 'must be a plain path: no spaces, backslashes, "?" (the query goes in request.query) or "#"';
  const dots = dotSegmentProblem(path);
  if (dots !== undefined) return `has ${dots}: the replay sends only paths under the base URL`;
  return undefined;
}

function stringList(value: unknown, field: string): readonly string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  return fail(field, 'a string or an array of strings', value);
}

function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (!isJsonObject(value)) return fail(field, 'an object', value);
  return value;
}

function optionalObject(value: unknown, field: string): Record<string, unknown> {
  return value === undefined ? {} : objectAt(value, field);
}

function readRules(value: unknown, field: string): Rules | undefined {
  if (value === undefined) return undefined;
  const rules: Record<string, { matchers: Matcher[] }> = {};
  for (const [name, rule] of Object.entries(objectAt(value, field))) {
    const at = `${field}[${JSON.stringify(name)}]`;
    const matchers = objectAt(rule, at).matchers;
    if (!Array.isArray(matchers)) fail(`${at}.matchers`, 'an array of matchers', matchers);
    rules[name] = {
      matchers: matchers.map((matcher, index) => {
        const where = `${at}.matchers[${index}]`;
        const { match, regex, min, max } = objectAt(matcher, where);
        if (typeof match !== 'string') fail(`${where}.match`, 'a string', match);
        if (regex !== undefined) {
          if (typeof regex !== 'string') fail(`${where}.regex`, 'a string', regex);
          try {
            new RegExp(regex);
          } catch (error) {
            throw new PactFileError(`${where}.regex is not a regex: ${(error as Error).message}`);
          }
        }
        for (const [name, bound] of [
          ['min', min],
          ['max', max],
        ] as const)
          if (bound !== undefined && !(Number.isSafeInteger(bound) && (bound as number) >= 0))
            fail(`${where}.${name}`, 'a whole number', bound);
        return {
          match,
          ...(regex === undefined ? {} : { regex: regex as string }),
          ...(min === undefined ? {} : { min: min as number }),
          ...(max === undefined ? {} : { max: max as number }),
        };
      }),
    };
  }
  return rules;
}

/** A path's tokens, or a PactFileError naming the field that holds it. */
function pathTokens(path: string, field: string): PactPathToken[] {
  try {
    return parsePactPath(path);
  } catch (error) {
    if (!(error instanceof PactPathError)) throw error;
    throw new PactFileError(
      `${field} is not a path the Pact tools can load (the official Verifier refuses the whole file): ${error.message}`,
    );
  }
}

/**
 * Categories whose names the Pact tools take as they are (pact_models'
 * `add_v3_rules_from_json` and `Generators::load_from_map`); every other category's keys are
 * path expressions.
 */
const literalRuleCategories = new Set(['header', 'query', 'path']);
const literalGeneratorCategories = new Set(['header', 'query', 'path', 'method', 'status']);

/**
 * Checks every path of a request's or response's `matchingRules` and `generators` as the Pact
 * tools read them, whether or not the replay uses them: a file they refuse is refused here too.
 */
function checkPaths(message: Record<string, unknown>, field: string): void {
  const rules = optionalObject(message.matchingRules, `${field}.matchingRules`);
  for (const [category, each] of Object.entries(rules)) {
    if (literalRuleCategories.has(category) || !isJsonObject(each) || 'matchers' in each) continue;
    for (const path of Object.keys(each))
      pathTokens(path, `${field}.matchingRules.${category}[${JSON.stringify(path)}]`);
  }
  const generators = optionalObject(message.generators, `${field}.generators`);
  for (const [category, each] of Object.entries(generators)) {
    if (literalGeneratorCategories.has(category) || !isJsonObject(each)) continue;
    for (const [path, generator] of Object.entries(each))
      if (isJsonObject(generator))
        pathTokens(path, `${field}.generators.${category}[${JSON.stringify(path)}]`);
  }
}

/** Where in `value` a string or key first holds a lone surrogate, as a field path; or undefined. */
function loneSurrogateAt(value: unknown, field: string): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : field;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value)
      ? `${field}[${key}]`
      : /^[A-Za-z_]\w*$/.test(key)
        ? `${field}${field === '' ? '' : '.'}${key}`
        : `${field}[${JSON.stringify(key)}]`;
    if (!key.isWellFormed()) return at;
    const found = loneSurrogateAt(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A response's body rules, each path parsed as the Pact tools parse it. */
function readBodyRules(value: unknown, field: string): BodyRule[] | undefined {
  const rules = readRules(value, field);
  if (rules === undefined) return undefined;
  return Object.entries(rules).map(([path, rule]) => ({
    path,
    tokens: pathTokens(path, `${field}[${JSON.stringify(path)}]`),
    matchers: rule.matchers,
  }));
}

function readHeaders(value: unknown, field: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, each] of Object.entries(optionalObject(value, field))) {
    const at = `${field}[${JSON.stringify(name)}]`;
    if (!token.test(name) || connectionHeaders.has(name.toLowerCase()))
      throw new PactFileError(`${at} is not a header a pact may set`);
    const joined = stringList(each, at).join(', ');
    if (/[\r\n\0]/.test(joined)) throw new PactFileError(`${at} holds a line break`);
    headers[name] = joined;
  }
  return headers;
}

function readInteraction(value: unknown, field: string): Interaction {
  const interaction = objectAt(value, field);
  const { description, providerStates = [], request, response } = interaction;
  if (typeof description !== 'string' || description === '')
    fail(`${field}.description`, 'a non-empty string', description);
  if (!Array.isArray(providerStates))
    fail(`${field}.providerStates`, 'an array of {name, params}', providerStates);
  const states = providerStates.map((state, index) => {
    const at = `${field}.providerStates[${index}]`;
    const { name, params } = objectAt(state, at);
    if (typeof name !== 'string') fail(`${at}.name`, 'a string', name);
    return { name, params: optionalObject(params, `${at}.params`) };
  });

  const asked = objectAt(request, `${field}.request`);
  const { method, path } = asked;
  if (typeof method !== 'string') fail(`${field}.request.method`, 'a string', method);
  if (typeof path !== 'string') fail(`${field}.request.path`, 'a string', path);
  const problem = pathProblem(path);
  if (problem !== undefined)
    throw new PactFileError(
      `${field}.request.path ${JSON.stringify(path.slice(0, 80))} ${problem}`,
    );
  const upper = method.toUpperCase();
  // A HEAD is a GET without its body.
  if (operationOf(upper === 'HEAD' ? 'GET' : upper, path) === undefined)
    throw new PactFileError(
      `${field}.request: ${upper.slice(0, 20)} ${path.slice(0, 80)} is not an operation of the interface; verify-pact sends only GET /pets, POST /pets, GET /pets/{petId} (and HEAD of the two GETs)`,
    );
  const query: Record<string, readonly string[]> = {};
  for (const [name, values] of Object.entries(
    optionalObject(asked.query, `${field}.request.query`),
  ))
    query[name] = stringList(values, `${field}.request.query[${JSON.stringify(name)}]`);
  const headers = readHeaders(asked.headers, `${field}.request.headers`);
  const body = asked.body === undefined ? undefined : objectAt(asked.body, `${field}.request.body`);
  const generators = optionalObject(asked.generators, `${field}.request.generators`);
  const headerGenerators = optionalObject(generators.header, `${field}.request.generators.header`);
  const authorization = headerGenerators.Authorization;
  const sendsKey =
    authorization !== undefined &&
    objectAt(authorization, `${field}.request.generators.header.Authorization`).type ===
      'ProviderState';

  const answer = objectAt(response, `${field}.response`);
  const { status } = answer;
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
    fail(`${field}.response.status`, 'an HTTP status (100 to 599)', status);
  const expectedHeaders: Record<string, string | readonly string[]> = {};
  for (const [name, each] of Object.entries(
    optionalObject(answer.headers, `${field}.response.headers`),
  ))
    expectedHeaders[name] = stringList(each, `${field}.response.headers[${JSON.stringify(name)}]`);
  const expectedBody =
    answer.body === undefined ? undefined : objectAt(answer.body, `${field}.response.body`);
  checkPaths(asked, `${field}.request`);
  checkPaths(answer, `${field}.response`);
  const rules = optionalObject(answer.matchingRules, `${field}.response.matchingRules`);
  const headerRules = readRules(rules.header, `${field}.response.matchingRules.header`);
  const bodyRules = readBodyRules(rules.body, `${field}.response.matchingRules.body`);
  return {
    description,
    providerStates: states,
    request: {
      method: upper as Interaction['request']['method'],
      path,
      query,
      headers,
      ...(body === undefined ? {} : { body }),
      sendsKey,
    },
    response: {
      status: status as number,
      headers: expectedHeaders,
      ...(expectedBody === undefined ? {} : { body: expectedBody }),
      matchingRules: {
        ...(headerRules === undefined ? {} : { header: headerRules }),
        ...(bodyRules === undefined ? {} : { body: bodyRules }),
      },
    },
  };
}

/**
 * The HTTP interactions of a parsed pact file, every field the replay reads checked. Throws a
 * PactFileError naming the first field that is wrong.
 */
export function readPact(value: unknown): readonly Interaction[] {
  if (!isJsonObject(value) || !Array.isArray(value.interactions))
    throw new PactFileError('not a pact file: it has no "interactions" array');
  const lone = loneSurrogateAt(value, '');
  if (lone !== undefined)
    throw new PactFileError(
      `${lone.slice(0, 200)} holds a lone surrogate (a \\ud800-\\udfff escape without its pair): the Pact tools cannot parse the file`,
    );
  const metadata = isJsonObject(value.metadata) ? value.metadata : {};
  const specification = isJsonObject(metadata.pactSpecification) ? metadata.pactSpecification : {};
  const version = String(specification.version ?? '');
  if (!version.startsWith('4'))
    throw new PactFileError(
      `a Pact V4 file is needed (metadata.pactSpecification.version "4.0"), got "${version.slice(0, 20)}"`,
    );
  const interactions: Interaction[] = [];
  for (const [index, each] of value.interactions.entries()) {
    const field = `interactions[${index}]`;
    const type = isJsonObject(each) ? each.type : undefined;
    if (type !== undefined && typeof type !== 'string') fail(`${field}.type`, 'a string', type);
    // Messages and other kinds are not HTTP: the replay leaves them out.
    if ((type ?? 'Synchronous/HTTP') !== 'Synchronous/HTTP') continue;
    interactions.push(readInteraction(each, field));
  }
  return interactions;
}
