/**
 * The catalogue of interface coverage's items: every operation x documented status of the
 * OpenAPI document, then the interface's named rules and headers (the "Coverage items" section of
 * openapi/interface.md, mirrored in `ruleItems`). interface-coverage.ts records traffic against it.
 */
import { openapiDocument } from '../../../base/contract/openapi.generated.ts';
import type { OperationId } from '../../../base/contract/types.ts';

/** The version of the record's shape, in every record (`schema`). */
export const coverageSchemaVersion = 'petstore-coverage/1';

/** One thing of the interface that traffic can exercise. */
export interface CoverageItem {
  /** `listPets 200` for an operation x status; a dotted name (`limits.ban`) for a rule. */
  readonly id: string;
  readonly kind: 'status' | 'rule';
  /** What exercises it, in a sentence. */
  readonly title: string;
  /** Where the interface says it (openapi/interface.md). */
  readonly source: string;
  /** The harness checks that exercise it (for a harness run's skipped-and-why). */
  readonly checks: readonly string[];
}

/** The harness checks on each status. */
const statusChecks: Record<string, readonly string[]> = {
  'listPets 200': ['listPets.responseShape', 'listPets.defaultLimit', 'listPets.statusFilter'],
  'listPets 401': ['auth.missingKey', 'auth.unknownKey', 'auth.malformedHeader'],
  'listPets 429': ['rateLimit.exceededGives429'],
  'createPet 201': ['createPet.created', 'createPet.roundTrip'],
  'createPet 400': [
    'createPet.requiredFields',
    'createPet.invalidValues',
    'createPet.bodyRequired',
  ],
  'createPet 401': ['auth.missingKey', 'auth.unknownKey'],
  'createPet 429': ['rateLimit.exceededGives429'],
  'getPet 200': ['getPet.found', 'getPet.responseShape'],
  'getPet 401': ['auth.missingKey', 'auth.unknownKey'],
  'getPet 404': ['getPet.notFound'],
  'getPet 429': ['rateLimit.exceededGives429'],
};

/** Every operation x status the interface lists, read from the OpenAPI document's responses. */
function statusItems(): CoverageItem[] {
  const items: CoverageItem[] = [];
  for (const [path, methods] of Object.entries(openapiDocument.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const { operationId, responses } = operation as {
        operationId: OperationId;
        responses: Record<string, { 'x-not-in-interface'?: boolean }>;
      };
      // The statuses the interface lists: the document adds the fake's own refusals, marked.
      const listed = Object.entries(responses).filter(
        ([key, response]) => /^\d{3}$/.test(key) && response['x-not-in-interface'] !== true,
      );
      for (const [status] of listed) {
        const id = `${operationId} ${status}`;
        items.push({
          id,
          kind: 'status',
          title: `${method.toUpperCase()} ${path} answered ${status}`,
          // Where openapi/interface.md describes the operation.
          source: `${method.toUpperCase()} ${path} (${operationId})`,
          checks: statusChecks[id] ?? [],
        });
      }
    }
  }
  return items;
}

/**
 * The interface's named rules and headers, as openapi/interface.md lists them under "Coverage
 * items" (a test keeps the two lists equal).
 */
export const ruleItems: readonly CoverageItem[] = [
  {
    id: 'headers.rateLimit',
    kind: 'rule',
    title: 'a response carried X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
    source: 'Limits: rate-limit headers, on every response',
    checks: ['headers.rateLimitOnEveryResponse', 'headers.rateLimitValues'],
  },
  {
    id: 'headers.rateLimitReset',
    kind: 'rule',
    title: 'X-RateLimit-Reset was a Unix time (seconds, not a countdown)',
    source: 'Limits: rate-limit headers, on every response',
    checks: ['headers.rateLimitResetIsTime'],
  },
  {
    id: 'limits.retryAfter',
    kind: 'rule',
    title: 'a 429 said Retry-After',
    source: 'Limits, rule 2; Errors',
    checks: ['rateLimit.retryAfterOn429'],
  },
  {
    id: 'limits.retryAfterHonoured',
    kind: 'rule',
    title: 'after a 429, the same key sent again once its Retry-After had passed',
    source: 'Limits, rule 2',
    checks: ['rateLimit.servedAfterRetryAfter'],
  },
  {
    id: 'limits.ban',
    kind: 'rule',
    title: 'after a 429, the same key kept sending before its Retry-After had passed (the ban)',
    source: 'Limits, rule 3',
    checks: [],
  },
  {
    id: 'auth.challenge',
    kind: 'rule',
    title: 'a 401 carried a WWW-Authenticate challenge',
    source: 'Authentication: on failure',
    checks: ['auth.missingKey', 'auth.unknownKey', 'auth.malformedHeader'],
  },
  {
    id: 'getPet.deprecation',
    kind: 'rule',
    title: 'getPet answered with Deprecation, Sunset and Link headers',
    source: 'GET /pets/{petId}, rules 1-2; Versioning',
    checks: ['getPet.deprecationHeader', 'getPet.sunsetDate'],
  },
  {
    id: 'listPets.defaultPage',
    kind: 'rule',
    title: 'listPets was asked without limit (at most 20 animals)',
    source: 'GET /pets, rule 1; Limits: page size',
    checks: ['listPets.defaultLimit'],
  },
  {
    id: 'listPets.pageBounds',
    kind: 'rule',
    title: 'listPets was asked with limit at or past a bound (1, 100, or outside them)',
    source: 'Limits: page size',
    checks: ['listPets.limitRespected', 'listPets.limitOutOfRange'],
  },
  {
    id: 'listPets.statusFilter',
    kind: 'rule',
    title: 'listPets was asked with the status filter',
    source: 'GET /pets, rule 2',
    checks: ['listPets.statusFilter'],
  },
  {
    id: 'errors.body',
    kind: 'rule',
    title: 'an error response carried a JSON Error body (code, message, status)',
    source: 'Errors',
    checks: ['errors.bodyShape', 'errors.statusMatches'],
  },
];

/** Every coverage item: the document's operation x status items, then the rules. */
export const coverageItems: readonly CoverageItem[] = [...statusItems(), ...ruleItems];

/** The documented status items' ids by operation and status: one look-up a request, no new text. */
const statusIds = new Map<string, Map<number, string>>();
for (const { id, kind } of coverageItems) {
  if (kind !== 'status') continue;
  const [operationId = '', status = ''] = id.split(' ');
  const byStatus = statusIds.get(operationId) ?? new Map<number, string>();
  statusIds.set(operationId, byStatus.set(Number(status), id));
}

/** The id of an operation x status item (an undocumented status gets one too, never shown). */
export function statusItemId(operationId: OperationId, status: number): string {
  return statusIds.get(operationId)?.get(status) ?? `${operationId} ${status}`;
}
