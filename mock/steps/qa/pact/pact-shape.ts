/**
 * The shape of a recorded exchange, as the Pact recorder keys its interactions: operation,
 * status, error code, method, path template, query keys, request header names, body keys, plan
 * and, for listPets, whether the page was empty and its status filter. Most requests repeat a
 * shape already kept, so each recorder's namer keeps what the last URL, body key order and
 * parts gave, and works a part out again, or joins the shape's text, only when it changed.
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
 * name a body's many field names in a shape: a BigInt FNV-1a is too slow for a megabyte of names.
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

/** A body as the pipeline reads it: its parsed JSON value, or null for none or not JSON. */
export type ReadJson = Exchange['body']['json'];

/** Whether two lists hold the same items in the same order. */
function sameList(list: readonly unknown[], last: readonly unknown[]): boolean {
  return list.length === last.length && list.every((item, index) => item === last[index]);
}

/** Creates the shape namer of one recorder; paths are named relative to `basePath`. */
export function createShapeNamer(basePath: string) {
  let target = '';
  let targetOperation: OperationId | undefined;
  let template = '';
  let queryKeys = '';
  let statusFilter = '';
  let keys: readonly string[] = [];
  let bodyKeys = '';
  let lastParts: readonly unknown[] = [];
  let shape = '';

  /** Names the shape of one exchange (see the file's comment). */
  return (
    exchange: Exchange,
    operationId: OperationId,
    requestText: string,
    requestJson: ReadJson,
  ): string => {
    const { path, query, authorization } = exchange;
    // A route's parameters are read from the path alone: the same target on the same operation
    // has the same template.
    if (path + query !== target || operationId !== targetOperation) {
      const params = query === '' ? undefined : new URLSearchParams(query);
      template = templateOf(path.slice(basePath.length) || '/', exchange.params ?? undefined);
      queryKeys = params === undefined ? '' : [...new Set(params.keys())].sort().join(',');
      statusFilter = params?.get('status') ?? '';
      target = path + query;
      targetOperation = operationId;
    }
    const value = requestJson?.value;
    const named = value !== null && typeof value === 'object' ? Object.keys(value) : undefined;
    // Sorted once per key order: a client sends the same body key order again and again.
    if (named !== undefined && !sameList(named, keys)) {
      keys = named;
      const sorted = [...named].sort().join(',');
      bodyKeys = sorted.length > maxShapePart ? `#${digest(sorted)}` : sorted;
    }
    let bodyPart = requestText === '' ? '' : '<text>';
    if (requestJson !== null) bodyPart = named === undefined ? '' : bodyKeys;
    const listed = operationId === 'listPets';
    const parts = [
      operationId,
      exchange.status,
      exchange.errorCode ?? '',
      exchange.method,
      template,
      queryKeys,
      headerNames[authorization === 'none' ? 0 : 1][exchange.contentType === null ? 0 : 1],
      bodyPart,
      exchange.plan ?? (authorization === 'none' ? 'no key' : 'unknown key'),
      listed ? `${exchange.answerBody === '[]'} ${statusFilter}` : '',
    ];
    if (!sameList(parts, lastParts)) {
      lastParts = parts;
      shape = parts.join(' ');
    }
    return shape;
  };
}
