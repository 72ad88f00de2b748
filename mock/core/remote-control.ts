/**
 * The control surface of a fake that runs elsewhere (another tab, another process): every
 * function of `fake.control`, returning a promise of what it returns there. A ControlInputError
 * thrown there is thrown here with the same message and code, so `catch (error) { error.code }`
 * works wherever the fake runs. Environment-free: the browser door sends its calls over a
 * BroadcastChannel, `connectFake` over HTTP.
 */

import type { ControlReply } from '../pipeline/control-call.ts';
import { type ControlInputCode, ControlInputError } from '../pipeline/control-input-error.ts';
import type { FakeControl, RemoteForce } from './fake.ts';

/** `fake.control` of a fake elsewhere: each function returns a promise, wherever the fake runs. */
export type RemoteControl = {
  // `force` has two forms, which a mapped type would narrow to its last: it keeps both.
  readonly [Name in keyof FakeControl]: Name extends 'force'
    ? RemoteForce
    : FakeControl[Name] extends (...args: infer Args) => infer R
      ? (...args: Args) => Promise<Awaited<R>>
      : never;
};

/** What a reply gives the caller: its value, or the error thrown there. */
function settle(reply: ControlReply | { readonly kind: 'answer' }): unknown {
  if (reply.kind === 'value') return reply.value;
  if (reply.kind === 'error') {
    if (reply.name === 'ControlInputError')
      throw new ControlInputError(reply.message, reply.code as ControlInputCode);
    throw Object.assign(new Error(reply.message), { name: reply.name });
  }
  throw new Error('petstore-fake: a control call was answered with an HTTP answer');
}

/**
 * A control surface whose functions are run by `call` (here or where the fake runs). Every
 * property is a function, but `then`, so the object itself is never mistaken for a promise.
 */
export function remoteControl(
  call: (
    method: string,
    args: readonly unknown[],
  ) => Promise<ControlReply | { readonly kind: 'answer' }>,
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
