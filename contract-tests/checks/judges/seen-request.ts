/**
 * What a judge reads of a request, whoever sent it (an active check, or a client the proxy
 * forwarded): the listing's query, the petId, the createPet body, the Authorization's form. Each
 * is read once per exchange (kept beside it) however many judges ask, so the proxy parses a body
 * once.
 */
import { int64, type PetStatus, pageSize, petStatuses } from '../../contract/interface-facts.ts';
import { parseExact } from '../../http/exact-json.ts';
import type { Exchange, RequestSpec } from '../../http/exchange.ts';

/** The query of a `GET /pets`, each parameter at most once. */
export interface SeenQuery {
  /** `limit` as sent, if sent. */
  readonly limit?: string;
  /** `limit` when it is a plain integer from 1 to 100, the range the interface gives. */
  readonly limitInRange?: number;
  /** `status` as sent, if sent. */
  readonly status?: string;
  /** `status` when it is one of PetStatus. */
  readonly knownStatus?: PetStatus;
  /** The query as the reports quote it, e.g. `status=sold&limit=3`. */
  readonly label: string;
}

/** The body of a `POST /pets`. */
export type SeenBody =
  /** No body, or an empty one. */
  | { readonly kind: 'none' }
  /** Sent as another Content-Type than JSON: no rule of the interface speaks of it. */
  | { readonly kind: 'other-type' }
  /** Labelled JSON (or not labelled), but not JSON. */
  | { readonly kind: 'not-json' }
  /** JSON: parsed with numbers (for the schema) and with integers exact (for comparing). */
  | { readonly kind: 'json'; readonly json: unknown; readonly exact: unknown }
  /** Not seen: it passed the proxy's capture cap. */
  | { readonly kind: 'unread' };

const queries = new WeakMap<Exchange, SeenQuery | null>();
const bodies = new WeakMap<Exchange, SeenBody>();

/** A limit the interface allows, written plainly (no sign, no leading zero). */
const inRange = /^(?:[1-9]\d?|100)$/;

function readQuery(path: string): SeenQuery | null {
  const at = path.indexOf('?');
  const params = new URLSearchParams(at === -1 ? '' : path.slice(at + 1));
  const limits = params.getAll('limit');
  const statuses = params.getAll('status');
  // A parameter given twice: which one a server reads is not the interface's to say.
  if (limits.length > 1 || statuses.length > 1) return null;
  const [limit] = limits;
  const [status] = statuses;
  const parts = [
    ...(status === undefined ? [] : [`status=${status}`]),
    ...(limit === undefined ? [] : [`limit=${limit}`]),
  ];
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(limit !== undefined && inRange.test(limit) && Number(limit) <= pageSize.max
      ? { limitInRange: Number(limit) }
      : {}),
    ...(status === undefined ? {} : { status }),
    ...((petStatuses as readonly string[]).includes(status ?? '')
      ? { knownStatus: status as PetStatus }
      : {}),
    label: parts.join('&'),
  };
}

/** The query of a `GET /pets`; undefined for another request, or one repeating a parameter. */
export function queryOf(exchange: Exchange): SeenQuery | undefined {
  if (exchange.spec.operationId !== 'listPets') return undefined;
  let query = queries.get(exchange);
  if (query === undefined) {
    query = readQuery(exchange.spec.path);
    queries.set(exchange, query);
  }
  return query ?? undefined;
}

/** The petId of a `GET /pets/{petId}`, percent-decoded; undefined for another request. */
export function petIdOf(exchange: Exchange): string | undefined {
  if (exchange.spec.operationId !== 'getPet') return undefined;
  const segment = exchange.spec.path.split('?')[0]?.split('/')[2] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The petId as an int64, or undefined when it is not one written in decimal. */
export function int64Of(id: string): bigint | undefined {
  if (!/^-?\d+$/.test(id)) return undefined;
  const value = BigInt(id);
  return value >= int64.min && value <= int64.max ? value : undefined;
}

function isJsonType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/json\s*(;|$)/i.test(contentType);
}

function readBody(spec: RequestSpec): SeenBody {
  if (spec.bodyUnread === true) return { kind: 'unread' };
  if (spec.body === undefined || spec.body === '') return { kind: 'none' };
  if (!isJsonType(spec.contentType)) return { kind: 'other-type' };
  try {
    return { kind: 'json', json: JSON.parse(spec.body), exact: parseExact(spec.body) };
  } catch {
    return { kind: 'not-json' };
  }
}

/** The body of a `POST /pets`; undefined for another request. */
export function bodyOf(exchange: Exchange): SeenBody | undefined {
  if (exchange.spec.operationId !== 'createPet') return undefined;
  let body = bodies.get(exchange);
  if (body === undefined) {
    body = readBody(exchange.spec);
    bodies.set(exchange, body);
  }
  return body;
}

/**
 * The form of a request's Authorization: none, a bearer token (`Bearer <token>`, the scheme in
 * any case as RFC 9110 section 11.1 allows), or malformed (another scheme, no scheme, no token,
 * extra parts), which the interface answers 401 whatever the token.
 */
export function authorizationForm(auth: RequestSpec['auth']): 'none' | 'bearer' | 'malformed' {
  if (auth === 'none') return 'none';
  if (auth === 'key') return 'bearer';
  return /^bearer +\S+ *$/i.test(auth.header) ? 'bearer' : 'malformed';
}

/** Longest path a message quotes whole: the interface's own are about 40 characters. */
const quotedPath = 120;

/** The request as reports name it, e.g. `GET /pets?limit=3` (a long path cut, its length said). */
export function requestLine(exchange: Exchange): string {
  const { method, path } = exchange.spec;
  return path.length <= quotedPath
    ? `${method} ${path}`
    : `${method} ${path.slice(0, quotedPath)}... (${path.length} characters)`;
}
