/**
 * Servers that fail only on one edge class of input (a non-ASCII name, a control character,
 * an int64 at the edge). A property run draws such values only by luck; the harness must catch
 * each of them at one run per property, whatever the seed, because every property tries its
 * edge classes first (see ForAllOptions.examples).
 */

import { int64 } from '../../../contract-tests/contract/interface-facts.ts';
import type { FakeWithCore } from '../../../mock/internal/entry.ts';
import { before, safeParse, serverError } from './fault-helpers.ts';
import { type Intercepted, rebuild } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Forwards every createPet request except those `refuse` picks, which get a 500. */
const failCreateWhen =
  (refuse: (body: { name?: unknown; categoryId?: unknown }) => boolean) => (fake: FakeWithCore) =>
    before('createPet', (call) =>
      refuse(createdWith(call)) ? serverError(fake) : rebuild(call.request, { body: call.body }),
    )(fake);

function createdWith(call: Intercepted): { name?: unknown; categoryId?: unknown } {
  const body = safeParse(call.body);
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/** Mutants that break only on an edge class of input. */
export const edgeClassMutants: readonly Mutant[] = [
  mutant({
    name: 'non-ascii-name-500',
    fault: 'POST /pets answers 500 when the name has a character outside ASCII',
    expect: 'createPet.nameEdgeCases',
    wrap: failCreateWhen(
      ({ name }) => typeof name === 'string' && [...name].some((char) => char.charCodeAt(0) > 0x7f),
    ),
  }),
  mutant({
    name: 'control-character-name-500',
    fault: 'POST /pets answers 500 when the name has a control character',
    expect: 'createPet.nameEdgeCases',
    wrap: failCreateWhen(
      ({ name }) => typeof name === 'string' && [...name].some((char) => char.charCodeAt(0) < 0x20),
    ),
  }),
  mutant({
    name: 'int64-min-category-500',
    fault: 'POST /pets answers 500 for categoryId -2^63 (the smallest int64)',
    expect: 'createPet.int64CategoryId',
    wrap: failCreateWhen(({ categoryId }) => categoryId === int64.min),
  }),
];
