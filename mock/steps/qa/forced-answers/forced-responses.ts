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

/** Creates an empty queue of forced responses, one rule per operation. */
export function createForcedResponses() {
  const rules = new Map<OperationId, ForcedRule>();
  return {
    /** Forces the next `count` responses of an operation to `status`; replaces any earlier rule. */
    force(
      operationId: OperationId,
      status: number,
      count: number,
      retryAfterSeconds: number | null = 1,
    ): ForcedRule {
      if (!operationIds.includes(operationId))
        throw new ControlInputError(
          `operationId must be one of: ${operationIds.join(', ')}; got "${String(operationId).slice(0, 64)}"`,
        );
      if (typeof status !== 'number' || !Object.hasOwn(forceableStatuses, status))
        throw new ControlInputError(
          `status must be one of: ${Object.keys(forceableStatuses).join(', ')}; got ${status}`,
        );
      if (!Number.isSafeInteger(count) || count < 1 || count > 1_000_000)
        throw new ControlInputError(`count must be an integer from 1 to 1000000, got ${count}`);
      // Whole seconds, 0 to a day; none (null) only on a 503.
      if (
        retryAfterSeconds === null
          ? status !== 503
          : !Number.isSafeInteger(retryAfterSeconds) ||
            retryAfterSeconds < 0 ||
            retryAfterSeconds > 86_400
      )
        throw new ControlInputError(
          `retryAfterSeconds must be an integer from 0 to 86400${status === 503 ? ', or null for no Retry-After' : ''}, got ${String(retryAfterSeconds)}`,
        );
      const rule: ForcedRule = {
        status: status as ForceableStatus,
        remaining: count,
        retryAfterSeconds,
      };
      rules.set(operationId, rule);
      return rule;
    },
    /** Spends one forced response of an operation, if any is queued. */
    take(operationId: OperationId): ForcedRule | undefined {
      const rule = rules.get(operationId);
      if (rule === undefined) return undefined;
      rule.remaining -= 1;
      if (rule.remaining <= 0) rules.delete(operationId);
      return rule;
    },
    /** How many operations have a rule pending. */
    size: () => rules.size,
    /** The rules still pending, by operation. */
    list: (): Partial<Record<OperationId, ForcedRule>> => Object.fromEntries(rules),
    /** Drops every rule. */
    clear: () => rules.clear(),
    /** Replaces every rule with copies of `rules` (from `list()` of a queue that checked them). */
    replace(given: Partial<Record<OperationId, ForcedRule>>): void {
      rules.clear();
      for (const [operationId, rule] of Object.entries(given))
        rules.set(operationId as OperationId, { ...rule });
    },
  };
}
