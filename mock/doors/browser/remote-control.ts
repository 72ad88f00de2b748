/**
 * The control surface of a fake that may live in another tab: every function of `fake.control`,
 * returning a promise of what it returns there. A ControlInputError thrown there is thrown here
 * with the same message and code, so `catch (error) { error.code }` works in every tab.
 */

import type { FakeControl, RemoteForce } from '../../core/fake.ts';
import { type ControlInputCode, ControlInputError } from '../../pipeline/control-input-error.ts';
import type { Reply } from './tab-messages.ts';

/** `fake.control` in the browser: each function returns a promise, wherever the fake runs. */
export type RemoteControl = {
  // `force` has two forms, which a mapped type would narrow to its last: it keeps both.
  readonly [Name in keyof FakeControl]: Name extends 'force'
    ? RemoteForce
    : FakeControl[Name] extends (...args: infer Args) => infer R
      ? (...args: Args) => Promise<Awaited<R>>
      : never;
};

/** Runs one control function of a fake for a call from any tab; never throws. */
export async function callControl(
  control: FakeControl,
  method: string,
  args: readonly unknown[],
): Promise<Reply> {
  const run = Object.hasOwn(control, method)
    ? (control as unknown as Record<string, unknown>)[method]
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

/** What a control call's reply gives the caller: its value, or the error thrown there. */
function settle(reply: Reply): unknown {
  if (reply.kind === 'value') return reply.value;
  if (reply.kind === 'error') {
    if (reply.name === 'ControlInputError')
      throw new ControlInputError(reply.message, reply.code as ControlInputCode);
    throw Object.assign(new Error(reply.message), { name: reply.name });
  }
  throw new Error('petstore-fake: a control call was answered with an HTTP answer');
}

/**
 * A control surface whose functions are run by `call` (in this tab or the leading one). Every
 * property is a function, but `then`, so the object itself is never mistaken for a promise.
 */
export function remoteControl(
  call: (method: string, args: readonly unknown[]) => Promise<Reply>,
): RemoteControl {
  const functions = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy({} as RemoteControl, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      let run = functions.get(name);
      if (run === undefined) {
        run = async (...args) => settle(await call(name, args));
        functions.set(name, run);
      }
      return run;
    },
  });
}
