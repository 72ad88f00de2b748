/**
 * A control request the fake refuses because of what was sent (not a bug in the fake): a bad
 * field, an unknown key id, a secret already in use. It carries the Error code to answer with,
 * so the HTTP control surface never classifies errors by their message.
 */
import type { ErrorCode } from '../base/messages/errors.ts';

/** The codes a refused control request answers with. */
export type ControlInputCode = Extract<
  ErrorCode,
  'invalid_control_request' | 'control_not_found' | 'control_conflict'
>;

/** Thrown by the control surface, before it changes anything, when a request cannot be done. */
export class ControlInputError extends Error {
  override readonly name = 'ControlInputError';
  readonly code: ControlInputCode;

  constructor(message: string, code: ControlInputCode = 'invalid_control_request') {
    super(message);
    this.code = code;
  }
}
