/**
 * The shape of a recorded exchange, as the Pact recorder keys its interactions: operation,
 * status, error code, method, path template, query keys, request header names, body keys,
 * plan and, for listPets, whether the page was empty and its status filter. The recorder asks
 * for it on every request it may record, and most requests repeat a shape already kept, so the
 * namer keeps the last exchange's parts (per fake: it lives in the recorder's own object) and
 * makes a shape's text only when a part changed.
 */
import type { OperationId } from '../../../base/contract/types.ts';
import type { Exchange } from '../../../pipeline/exchange.ts';

/** Body keys past this length make a shape by their hash: a flood of names is not kept. */
const maxShapePart = 200;

/** Which of the two request headers a shape names, by presence: four texts, made once. */
const headerNames = [
  [',', ',Content-Type'],
  ['Authorization,', 'Authorization,Content-Type'],
] as const;

/**
 * A cheap 64-bit digest of a long text (two 32-bit FNV-1a passes with different offsets), to
 * name a body's many field names in a shape: a BigInt FNV-1a costs a second for a megabyte of
 * names.
 */
function digest(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    low = Math.imul(low ^ unit, 0x01000193);
    high = Math.imul(high ^ unit, 0x01000193) ^ (low >>> 15);
  }
  return `${(low >>> 0).toString(16).padStart(8, '0')}${(high >>> 0).toString(16).padStart(8, '0')}`;
}

/** The path template of a route's path: its parameters named, not valued. */
export function templateOf(
  path: string,
  params: Readonly<Record<string, string>> | undefined,
): string {
  if (params === undefined) return path;
  let template = path;
  for (const [name, value] of Object.entries(params))
    template = template.replace(`/${encodeURIComponent(value)}`, `/{${name}}`);
  return template;
}

/** A request body as the recorder read it: parsed JSON, or not JSON (`ok: false`). */
export type ReadJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** Names the shape of one exchange (see the file's comment). */
export type ShapeNamer = (
  exchange: Exchange,
  operationId: OperationId,
  requestText: string,
  requestJson: ReadJson,
) => string;

/** The parts a shape's text is joined from, in order. */
interface ShapeParts {
  operationId: string;
  status: number;
  errorCode: string;
  method: string;
  template: string;
  queryKeys: string;
  headers: string;
  bodyKeys: string;
  who: string;
  /** listPets only: whether the page was empty and the status filter (empty for others). */
  emptyPage: boolean;
  statusFilter: string;
}

/**
 * What the last request's URL and body parts were made from: a client sends the same URL and
 * the same body key order again and again, and each part is worked out again only when what it
 * is made from changed.
 */
interface Derived {
  /** The path and query: the same target of the same operation has the same template and keys. */
  target: string;
  operationId: OperationId | undefined;
  template: string;
  queryKeys: string;
  /** The `status` query value, for listPets (empty without one). */
  statusFilter: string;
  keys: readonly string[];
  bodyKeys: string;
}

/** Whether two key lists are the same names in the same order. */
function sameKeys(keys: readonly string[], last: readonly string[]): boolean {
  if (keys.length !== last.length) return false;
  for (let index = 0; index < keys.length; index++) if (keys[index] !== last[index]) return false;
  return true;
}

/** The shape's text: the parts joined by spaces, as interactions have always been keyed. */
function shapeText(parts: ShapeParts): string {
  return [
    parts.operationId,
    parts.status,
    parts.errorCode,
    parts.method,
    parts.template,
    parts.queryKeys,
    parts.headers,
    parts.bodyKeys,
    parts.who,
    parts.operationId === 'listPets' ? `${parts.emptyPage} ${parts.statusFilter}` : '',
  ].join(' ');
}

/** Creates the shape namer of one recorder; paths are named relative to `basePath`. */
export function createShapeNamer(basePath: string): ShapeNamer {
  const derived: Derived = {
    target: '',
    operationId: undefined,
    template: '',
    queryKeys: '',
    statusFilter: '',
    keys: [],
    bodyKeys: '',
  };
  /** The last exchange's parts (status 0 matches none) and its shape's text. */
  const last: ShapeParts & { shape: string } = {
    operationId: '',
    status: 0,
    errorCode: '',
    method: '',
    template: '',
    queryKeys: '',
    headers: '',
    bodyKeys: '',
    who: '',
    emptyPage: false,
    statusFilter: '',
    shape: '',
  };

  /** A body's keys in sorted order, joined (a digest past maxShapePart); sorted once per key order. */
  const bodyKeysOf = (value: object): string => {
    const keys = Object.keys(value);
    if (!sameKeys(keys, derived.keys)) {
      const sorted = [...keys].sort().join(',');
      derived.keys = keys;
      derived.bodyKeys = sorted.length > maxShapePart ? `#${digest(sorted)}` : sorted;
    }
    return derived.bodyKeys;
  };

  /** Works out the parts read from the URL, unless it is the last one's, of the same operation. */
  const readUrl = (exchange: Exchange, operationId: OperationId): void => {
    const { path, query } = exchange;
    const target = path + query;
    // A route's parameters are read from the path alone: the same target on the same operation
    // has the same template.
    if (target === derived.target && operationId === derived.operationId) return;
    const params = query === '' ? undefined : new URLSearchParams(query);
    derived.template = templateOf(path.slice(basePath.length) || '/', exchange.params ?? undefined);
    derived.queryKeys = params === undefined ? '' : [...new Set(params.keys())].sort().join(',');
    derived.statusFilter = params?.get('status') ?? '';
    derived.target = target;
    derived.operationId = operationId;
  };

  return (exchange, operationId, requestText, requestJson) => {
    const { authorization, answerBody, status, method } = exchange;
    readUrl(exchange, operationId);
    const { template, queryKeys } = derived;
    const headers =
      headerNames[authorization === 'none' ? 0 : 1][exchange.contentType === null ? 0 : 1];
    const bodyKeys = requestJson.ok
      ? requestJson.value !== null && typeof requestJson.value === 'object'
        ? bodyKeysOf(requestJson.value)
        : ''
      : requestText === ''
        ? ''
        : '<text>';
    const who = exchange.plan ?? (authorization === 'none' ? 'no key' : 'unknown key');
    const listed = operationId === 'listPets';
    const emptyPage = listed && answerBody === '[]';
    const statusFilter = listed ? derived.statusFilter : '';
    const errorCode = exchange.errorCode ?? '';
    if (
      operationId !== last.operationId ||
      status !== last.status ||
      errorCode !== last.errorCode ||
      method !== last.method ||
      template !== last.template ||
      queryKeys !== last.queryKeys ||
      headers !== last.headers ||
      bodyKeys !== last.bodyKeys ||
      who !== last.who ||
      emptyPage !== last.emptyPage ||
      statusFilter !== last.statusFilter
    ) {
      Object.assign(last, {
        operationId,
        status,
        errorCode,
        method,
        template,
        queryKeys,
        headers,
        bodyKeys,
        who,
        emptyPage,
        statusFilter,
      });
      last.shape = shapeText(last);
    }
    return last.shape;
  };
}
