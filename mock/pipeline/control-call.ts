/**
 * One call of a control function by name, for a caller in another tab or process: the browser
 * door's tabs and the control surface's `POST /__control/call` both run a call here, and the
 * remote control (core/remote-control.ts) turns the reply back into a value or a thrown error.
 */
import { ControlInputError } from './control-input-error.ts';

/** What a control call gives back: its value, or the error it threw, with a ControlInputError's code. */
export type ControlReply =
  | { readonly kind: 'value'; readonly value: unknown }
  | {
      readonly kind: 'error';
      readonly name: string;
      readonly message: string;
      readonly code?: string;
    };

/** Runs one function of a control surface for a call from elsewhere; never throws. */
export async function callControl(
  control: object,
  method: string,
  args: readonly unknown[],
): Promise<ControlReply> {
  const run = Object.hasOwn(control, method)
    ? (control as Record<string, unknown>)[method]
    : undefined;
  if (typeof run !== 'function')
    return {
      kind: 'error',
      name: 'TypeError',
      message: `fake.control has no function "${method.slice(0, 64)}"`,
    };
  try {
    return { kind: 'value', value: await run.apply(control, args) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    return error instanceof ControlInputError
      ? { kind: 'error', name, message, code: error.code }
      : { kind: 'error', name, message };
  }
}
