/**
 * Forced responses for QA: "the next N responses of listPets are 503". A rule is spent one
 * response at a time; forced responses do not count against the key's rate limit.
 */
import { operationIds } from '../../../base/contract/schemas.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import type { ErrorCode } from '../../../base/messages/errors.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';

/** Statuses a response can be forced to, with the error code each uses. */
export const forceableStatuses = {
  400: 'invalid_body',
  401: 'unauthorized',
  404: 'not_found',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
} as const satisfies Record<number, ErrorCode>;

/** A status a response can be forced to. */
export type ForceableStatus = keyof typeof forceableStatuses;

/** What to force on an operation, and how many times. */
export interface ForcedRule {
  readonly status: ForceableStatus;
  /** Responses left to force. */
  remaining: number;
  /**
   * `Retry-After` in seconds for forced 429 and 503 responses: 0 sends `Retry-After: 0` (retry
   * at once), `null` sends none on a 503 (a 429 always carries one: Error codes table), so a
   * client's own backoff shows in the client report.
   */
  readonly retryAfterSeconds: number | null;
}

/** The queue of forced responses per operation. */
export interface ForcedResponses {
  /** Forces the next `count` responses of an operation to `status`; replaces any earlier rule. */
  force(
    operationId: OperationId,
    status: number,
    count: number,
    retryAfterSeconds?: number | null,
  ): ForcedRule;
  /** Spends one forced response of an operation, if any is queued. */
  take(operationId: OperationId): ForcedRule | undefined;
  /** The rules still pending, by operation. */
  list(): Partial<Record<OperationId, ForcedRule>>;
  /** Drops every rule. */
  clear(): void;
  /** Replaces every rule with copies of `rules` (from `list()` of a queue that checked them). */
  replace(rules: Partial<Record<OperationId, ForcedRule>>): void;
}

/** Whether a status can be forced, narrowing it. */
function isForceableStatus(status: number): status is ForceableStatus {
  return Object.hasOwn(forceableStatuses, status);
}

/** Whether a value is a Retry-After a forced answer may say: whole seconds, 0 to a day. */
function isRetryAfterSeconds(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 86_400;
}

/** Creates an empty set of forced-response rules. */
export function createForcedResponses(): ForcedResponses {
  const rules = new Map<OperationId, ForcedRule>();
  return {
    force(operationId, status, count, retryAfterSeconds = 1) {
      if (!operationIds.includes(operationId)) {
        throw new ControlInputError(
          `operationId must be one of: ${operationIds.join(', ')}; got "${String(operationId).slice(0, 64)}"`,
        );
      }
      if (typeof status !== 'number' || !isForceableStatus(status)) {
        throw new ControlInputError(
          `status must be one of: ${Object.keys(forceableStatuses).join(', ')}; got ${status}`,
        );
      }
      if (!Number.isSafeInteger(count) || count < 1 || count > 1_000_000) {
        throw new ControlInputError(`count must be an integer from 1 to 1000000, got ${count}`);
      }
      if (retryAfterSeconds === null ? status !== 503 : !isRetryAfterSeconds(retryAfterSeconds)) {
        throw new ControlInputError(
          `retryAfterSeconds must be an integer from 0 to 86400${status === 503 ? ', or null for no Retry-After' : ''}, got ${String(retryAfterSeconds)}`,
        );
      }
      const rule: ForcedRule = { status, remaining: count, retryAfterSeconds };
      rules.set(operationId, rule);
      return rule;
    },
    take(operationId) {
      const rule = rules.get(operationId);
      if (rule === undefined) return undefined;
      rule.remaining -= 1;
      if (rule.remaining <= 0) rules.delete(operationId);
      return rule;
    },
    list: () => Object.fromEntries(rules),
    clear: () => rules.clear(),
    replace(given) {
      rules.clear();
      for (const [operationId, rule] of Object.entries(given))
        rules.set(operationId as OperationId, { ...rule });
    },
  };
}
