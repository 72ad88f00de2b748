import { assertSupportedRuntime } from './supported-runtime.ts';

/**
 * Throws an UnsupportedRuntimeError whose message is one line saying what to install, on a
 * Node.js older than 22.12 or in a vitest outside ^5.0.0: call it first in a globalSetup's
 * `setup`, which runs before any test file. On Node 20, vitest 5 and msw crash inside themselves
 * (`Map.groupBy is not a function`, `Promise.withResolvers is not a function`) and the suite's
 * own checks then blame the wrong thing (`no test file wrote a part: is
 * ./vitest.petstore-part.ts in setupFiles?`).
 * @example export function setup() { expectSupportedRuntime(); }
 */
export function expectSupportedRuntime(): void {
  assertSupportedRuntime('the suite (petstore-fake/qa)');
}
