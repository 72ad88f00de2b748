/**
 * The test helper: fails a user's suite, with a readable list, when the app's tests never
 * exercised the parts of the interface they were required to. Throws a plain Error subclass, so
 * it works under any test runner.
 */

import { assertSupportedRuntime } from '../../../base/runtime/supported-runtime.ts';
import { coverageItems } from './coverage-items.ts';
import type { CoverageItemRecord, CoverageRecord } from './coverage-record.ts';

/** Which items must have been exercised. */
export interface InterfaceCoverageOptions {
  /**
   * Item ids (`getPet 404`, `limits.ban`; the list: openapi/interface.md, Coverage items) or
   * `'all'`. Default `'all'`.
   */
  readonly require?: readonly string[] | 'all';
}

/**
 * The error `expectInterfaceCoverage` throws; `missing` holds the items never exercised. Its
 * message lists them one a line, and `missing` is a getter, not an own field, so a runner that
 * prints the error with Node's `util.inspect` (vitest's "error during close") prints that list
 * and one line of stack, not every item's record again.
 */
export class InterfaceCoverageError extends Error {
  override readonly name = 'InterfaceCoverageError';
  readonly #missing: readonly CoverageItemRecord[];

  constructor(message: string, missing: readonly CoverageItemRecord[]) {
    super(message);
    this.#missing = missing;
  }

  /** The required items no request exercised. */
  get missing(): readonly CoverageItemRecord[] {
    return this.#missing;
  }
}

/**
 * An InterfaceCoverageError whose stack is the one line that called expectInterfaceCoverage: the
 * list is in the message, and the frames of the runner that called the caller say nothing.
 */
function coverageError(
  message: string,
  missing: readonly CoverageItemRecord[],
): InterfaceCoverageError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    const error = new InterfaceCoverageError(message, missing);
    // V8 (Node, Chromium) only; elsewhere the error keeps the stack it was made with.
    Error.captureStackTrace?.(error, expectInterfaceCoverage);
    return error;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Throws an InterfaceCoverageError listing every required item no request exercised; returns the
 * coverage record when all were. Takes a fake (its coverage so far) or a coverage record (a
 * suite's, from mergeCoverage). An id that names no item throws too, with the valid ids.
 * @example expectInterfaceCoverage(fake, { require: ['listPets 401', 'limits.retryAfter', 'getPet 404'] });
 */
export function expectInterfaceCoverage(
  subject: { readonly control: { coverage(): CoverageRecord } } | CoverageRecord,
  options: InterfaceCoverageOptions = {},
): CoverageRecord {
  assertSupportedRuntime('expectInterfaceCoverage');
  const record = 'control' in subject ? subject.control.coverage() : subject;
  const ids = coverageItems.map((item) => item.id);
  const required =
    options.require === undefined || options.require === 'all' ? ids : options.require;
  const unknown = required.filter((id) => !ids.includes(id));
  if (unknown.length > 0)
    throw coverageError(
      `petstore-fake: expectInterfaceCoverage: unknown item(s) ${unknown.map((id) => JSON.stringify(id)).join(', ')}; the items are: ${ids.join(', ')}`,
      [],
    );
  const missing = record.items.filter(
    (item) => required.includes(item.id) && item.status !== 'exercised',
  );
  if (missing.length > 0)
    throw coverageError(
      `petstore-fake: the tests never exercised ${missing.length} of the ${required.length} required interface item(s) (${record.summary.exchanges} request${record.summary.exchanges === 1 ? '' : 's'} seen):\n${missing
        .map((item) => `  - ${item.id}: ${item.title} (${item.source})`)
        .join('\n')}`,
      missing,
    );
  return record;
}
