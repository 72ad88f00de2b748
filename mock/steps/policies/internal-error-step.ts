/** A bug in the fake must surface as a logged 500, never as a hang or a crash of the server. */

import { errorAnswer } from '../../base/messages/answer.ts';
import type { Step } from '../../pipeline/pipeline.ts';
import { SharedStateError } from '../../pipeline/shared-state.ts';
import { rateLimitSlot } from './rate-limit-headers-step.ts';

/**
 * The step: a later step or the handler that throws gets 500 `internal_error`, with the
 * anonymous X-RateLimit-* values (whatever a step had set is of no use once it failed).
 */
export function internalErrorStep(what: string): Step {
  // A rejection handler rather than an async step's try/await: no suspended frame per request.
  return (context, next) =>
    next().catch((error: unknown) => {
      // Not a bug: a replica answers these itself (503, or the request again on a fresh copy).
      if (error instanceof SharedStateError) throw error;
      console.error(`petstore-fake: ${what} failed`, error);
      context.set(rateLimitSlot, undefined);
      return errorAnswer('internal_error');
    });
}
