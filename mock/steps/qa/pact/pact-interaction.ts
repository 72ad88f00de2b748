/**
 * One Pact V4 `Synchronous/HTTP` interaction, made from an exchange the recorder keeps: the
 * request as the document states it (path relative to the base URL, the key as a provider-state
 * generator, the body whole or as its shape), the provider states it needs, and the answer with
 * the document's matching rules. Pure: the same exchange makes the same interaction, key included.
 */
import { parseJson, stringifyJson } from '../../../base/contract/lossless-json.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { credentialPlaceholders } from '../../../base/messages/redaction.ts';
import type { Exchange } from '../../../pipeline/exchange.ts';
import { bodyRules, type PactRules, responseHeaderRules, ruleOf } from './pact-matching-rules.ts';
import {
  keyState,
  listState,
  type ProviderState,
  petExistsState,
  petMissingState,
} from './pact-provider-states.ts';
import { type ReadJson, templateOf } from './pact-shape.ts';
import { wellFormedJson } from './well-formed-json.ts';

/** What the Authorization header is written as: a key of the right form that no fake holds. */
export const redactedAuthorization = credentialPlaceholders.knownKey;

/** A body whose JSON text is longer is kept as its shape (see `shapeOf`). */
const maxBodyChars = 16 * 1024;

/** A Pact V4 body. */
interface PactBody {
  readonly content: unknown;
  readonly contentType: string;
  readonly contentTypeHint: 'TEXT';
  readonly encoded: false;
}

/** One Pact V4 `Synchronous/HTTP` interaction. */
export interface PactInteraction {
  readonly type: 'Synchronous/HTTP';
  /** The same for the same request shape, answer and state in every run (merge pacts by it). */
  readonly key: string;
  readonly description: string;
  readonly providerStates: readonly ProviderState[];
  readonly pending: false;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly query?: Record<string, string[]>;
    readonly headers?: Record<string, string[]>;
    readonly body?: PactBody;
    readonly matchingRules?: Record<string, PactRules>;
    readonly generators?: Record<string, Record<string, unknown>>;
  };
  readonly response: {
    readonly status: number;
    readonly headers: Record<string, string[]>;
    readonly body?: PactBody;
    readonly matchingRules: Record<string, PactRules>;
  };
}

/**
 * Response headers a pact states besides the document's for the answer. Not Deprecation or
 * Sunset: the document does not declare them as headers, and a pact must stay within it
 * (PactFlow's bi-directional check refuses a header the document lacks).
 */
const statedHeaders = ['Content-Type', 'WWW-Authenticate'];

function jsonOf(text: string | undefined): ReadJson {
  if (text === undefined || text === '') return null;
  try {
    return { value: parseJson(text) };
  } catch {
    return null;
  }
}

/**
 * A short stable key for an interaction's shape (FNV-1a, 64 bits): the same requests give the
 * same key in every run, so pacts gathered across control resets merge by it.
 */
function shapeKey(shape: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const unit of new TextEncoder().encode(shape)) {
    hash ^= BigInt(unit);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * A large JSON body as a pact keeps it: the same structure, cut to its first fields, items and
 * characters. What the request was shaped like, which is what a pact states, not every byte.
 */
function shapeOf(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.slice(0, 256);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 6) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, 5).map((item) => shapeOf(item, depth + 1));
  // Entries, not assignment: a field may be called `__proto__`.
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, 32)
      .map(([name, item]) => [name.slice(0, 128), shapeOf(item, depth + 1)]),
  );
}

/** A body kept whole while it is small, else its shape. */
function keptBody(value: unknown, text: string | undefined): unknown {
  const size = text?.length ?? stringifyJson(value)?.length ?? 0;
  return size <= maxBodyChars ? value : shapeOf(value);
}

const pactBody = (content: unknown, contentType: string): PactBody => ({
  content,
  contentType,
  contentTypeHint: 'TEXT',
  encoded: false,
});

/** The request's key, as the verifier fills it in from the provider state's setup. */
const keyGenerators = {
  header: {
    Authorization: {
      type: 'ProviderState',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's own expression syntax, filled in by the verifier.
      expression: 'Bearer ${apiKey}',
      dataType: 'STRING',
    },
  },
};

/**
 * The interaction of one exchange, filed under its shape's name: its request, its answer and the
 * provider states it needs.
 */
export function interactionOf(
  exchange: Exchange,
  operationId: OperationId,
  requestText: string,
  requestJson: ReadJson,
  shape: string,
  basePath: string,
): PactInteraction {
  const { method, status, errorCode, plan } = exchange;
  // Paths are the document's: relative to the base URL, which holds the `/v1` prefix.
  const path = exchange.path.slice(basePath.length) || '/';
  const template = templateOf(path, exchange.params ?? undefined);
  const body = jsonOf(exchange.answerBody);
  const states = providerStatesOf(exchange, operationId, body);
  const query = queryOf(exchange.query);
  const queryKeys = Object.keys(query).length === 0 ? '' : `?${Object.keys(query).join('&')}`;
  const who =
    plan !== null ? [] : [exchange.authorization === 'none' ? 'no key' : 'a key that matches none'];
  const stateText = [...who, ...states.map((s) => s.name)].join(', ');
  // Well-formed throughout: a lone surrogate a client sent (or a cut left) would make the
  // whole file one the Pact tools cannot parse.
  return wellFormedJson({
    type: 'Synchronous/HTTP',
    key: shapeKey(shape),
    description: `${operationId} ${status}${errorCode === null ? '' : ` ${errorCode}`}: ${method} ${template}${queryKeys} (${stateText})`,
    providerStates: states,
    pending: false,
    request: requestOf(exchange, operationId, requestText, requestJson, path, query),
    response: responseOf(exchange, operationId, body),
  } satisfies PactInteraction) as PactInteraction;
}

/** The provider states an exchange needs: the caller's plan, a spent window or a ban, the pets. */
function providerStatesOf(
  exchange: Exchange,
  operationId: OperationId,
  body: ReadJson,
): ProviderState[] {
  const { plan, errorCode, status } = exchange;
  const states: ProviderState[] = [];
  if (plan !== null) {
    states.push(keyState(`a key on the ${plan} plan`, plan));
    if (errorCode === 'rate_limited') states.push(keyState("the key's window is spent", plan));
    if (errorCode === 'temporarily_banned') states.push(keyState('the key is banned', plan));
  }
  const petId = Number(exchange.params?.petId);
  if (operationId === 'getPet' && Number.isSafeInteger(petId) && petId > 0) {
    if (status === 200 && body !== null)
      states.push(petExistsState(body.value as Record<string, unknown>));
    if (status === 404) states.push(petMissingState(petId));
  }
  if (operationId === 'listPets' && status === 200 && Array.isArray(body?.value)) {
    const statusFilter = new URLSearchParams(exchange.query).get('status') ?? undefined;
    states.push(listState(body.value.length === 0, statusFilter));
  }
  return states;
}

/** A query's parameters, each with every value given. */
function queryOf(query: string): Record<string, string[]> {
  // A Map, then own properties: a parameter may be called `__proto__`.
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(query))
    values.set(name, [...(values.get(name) ?? []), value]);
  return Object.fromEntries(values);
}

/** The request side: the key as a provider-state generator, never its value; the body kept. */
function requestOf(
  exchange: Exchange,
  operationId: OperationId,
  requestText: string,
  requestJson: ReadJson,
  path: string,
  query: Record<string, string[]>,
): PactInteraction['request'] {
  const { authorization, contentType, plan } = exchange;
  const headers: Record<string, string[]> = {};
  const rules: Record<string, PactRules> = {};
  if (plan !== null) {
    headers.Authorization = [redactedAuthorization];
    rules.header = { Authorization: ruleOf({ match: 'regex', regex: '^Bearer \\S+$' }) };
  } else if (authorization !== 'none')
    headers.Authorization = [
      authorization === 'bearer'
        ? credentialPlaceholders.unknownKey
        : credentialPlaceholders.otherScheme,
    ];
  if (contentType !== null) headers['Content-Type'] = [contentType];
  let body: PactBody | undefined;
  if (requestJson !== null) {
    body = pactBody(keptBody(requestJson.value, requestText || undefined), 'application/json');
    rules.body = bodyRules(operationId, body.content);
  } else if (requestText !== '') body = pactBody(requestText.slice(0, maxBodyChars), 'text/plain');
  return {
    method: exchange.method,
    path,
    ...(Object.keys(query).length === 0 ? {} : { query }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(body === undefined ? {} : { body }),
    ...(Object.keys(rules).length === 0 ? {} : { matchingRules: rules }),
    ...(plan === null ? {} : { generators: keyGenerators }),
  };
}

/** The answer side: the headers the document states (and `statedHeaders`), the body kept. */
function responseOf(
  exchange: Exchange,
  operationId: OperationId,
  body: ReadJson,
): PactInteraction['response'] {
  const { method, status } = exchange;
  const documented = responseHeaderRules(operationId, status);
  const headers: Record<string, string[]> = {};
  const headerRules: PactRules = {};
  for (const [name, value] of Object.entries(exchange.headers)) {
    const stated = Object.keys(documented).find(
      (each) => each.toLowerCase() === name.toLowerCase(),
    );
    if (stated !== undefined) {
      headers[stated] = [value];
      headerRules[stated] = documented[stated] as PactRules[string];
    } else if (statedHeaders.includes(name)) headers[name] = [value];
  }
  if (headers['Retry-After'] !== undefined)
    headerRules['Retry-After'] = ruleOf({
      match: 'regex',
      regex: '^(\\d+|[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT)$',
    });
  const rules: Record<string, PactRules> = { header: headerRules };
  const kept =
    body !== null && method !== 'HEAD' ? keptBody(body.value, exchange.answerBody) : undefined;
  if (kept !== undefined) rules.body = bodyRules(operationId, kept, status);
  return {
    status,
    headers,
    ...(kept === undefined ? {} : { body: pactBody(kept, 'application/json') }),
    matchingRules: rules,
  };
}
