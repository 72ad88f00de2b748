/**
 * Pact files every verifier loads, held to the official one (@pact-foundation/pact's Verifier,
 * pinned in package.json, run as its README's "Provider API Testing" section shows, in a process
 * of its own: pact/official-verifier.ts):
 * - whatever keys a body carries (any Unicode, the characters a Pact path gives meaning to, a
 *   quote, the empty key, a lone surrogate, nested in objects and lists), the pact the fake
 *   records loads and every interaction passes against the fake (`"first name"` must be written
 *   `$['first name']`: the Verifier refuses `$.first name`);
 * - verify-pact refuses exactly the body-rule paths the Verifier refuses;
 * - the harness's own fuzzing (extra fields of any name), recorded by the fake, loads too.
 * Seeds are in the titles; PACT_KEYS_SEED=n explores others.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { createFake } from '../mock/internal/entry.ts';
import { startOfficialVerifier } from './pact/official-verifier.ts';
import { freeKey, pactFixture } from './pact/pact-fixture.ts';
import { PactFileError, readPact } from './pact/read-pact.ts';
import { createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';
import { directFakeTarget } from './targets/fake-target.ts';

const seed = Number(process.env.PACT_KEYS_SEED ?? 3232);
const { dir, serve } = pactFixture('petstore-pact-loads-');
const verifier = startOfficialVerifier();
afterAll(() => verifier.close());
const api = 'http://127.0.0.1:4010/v1';

let written = 0;
/** Writes a pact to a file of its own; answers the path. */
function writePact(pact: unknown): string {
  written += 1;
  const file = `${dir}/pact-${written}.json`;
  writeFileSync(file, JSON.stringify(pact));
  return file;
}

/** Characters a Pact path gives meaning to, and those its identifiers allow. */
const pathCharacters = ['$', '.', '[', ']', "'", '*', ' ', '-', ':', '#', '@', '\\', '"', '0', '_'];
/** One character of a key: those above, any ASCII, any code point, or a lone surrogate. */
const keyUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...pathCharacters) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map(String.fromCharCode) },
);
const anyKey = fc.string({ unit: keyUnit, maxLength: 8 });

/** NewPet's own fields stay NewPet's: the extra keys are the others. */
const extraKeys = fc
  .uniqueArray(anyKey, { minLength: 1, maxLength: 4 })
  .map((keys) => keys.filter((key) => !['name', 'categoryId', 'status'].includes(key)));

/** A create body with each key once: as a field, in a nested object, in a list's item. */
function bodyWith(keys: readonly string[]): string {
  const extra = keys.map((key, index) => {
    const value = [`x`, { [key]: 1 }, [{ [key]: true }]][index % 3];
    return [key, value] as const;
  });
  return JSON.stringify({ name: 'Rex', categoryId: 1, ...Object.fromEntries(extra) });
}

test(`property (seed ${seed}): a create body carrying any keys records a pact the official Verifier loads, and every interaction passes against the fake`, async () => {
  await fc.assert(
    fc.asyncProperty(extraKeys, async (keys) => {
      const fake = await createFake();
      const response = await fake.fetch(`${api}/pets`, {
        method: 'POST',
        headers: { ...freeKey, 'Content-Type': 'application/json' },
        body: bodyWith(keys),
      });
      expect(response.status).toBe(201);
      const file = writePact(fake.control.pact());
      const origin = await serve(await createFake());
      const verdict = await verifier.verify(file, origin);
      expect(verdict.message).toBe('');
      expect(verdict).toEqual({ loaded: true, passed: true, message: '' });
    }),
    {
      seed,
      numRuns: 25,
      endOnFailure: true,
      // A space, and the harness's fuzzing's `_.V00u<`; a quote, the empty key
      // and a lone surrogate, which no path can name or no Pact tool can parse.
      examples: [[['first name']], [['_.V00u<']], [["it's", '', '\ud800']]],
    },
  );
}, 180_000);

/** The characters a path expression is made of, and a few it may not hold. */
const pathUnit = fc.constantFrom(...pathCharacters, 'a', 'b', '1', 'é', '\u00a0', '\ud800', '\n');
const anyPath = fc.oneof(
  fc.string({ unit: pathUnit, maxLength: 10 }),
  fc.string({ unit: pathUnit, maxLength: 9 }).map((rest) => `$${rest}`),
  fc.string({ unit: pathUnit, maxLength: 8 }).map((name) => `$['${name}']`),
  fc.string({ unit: pathUnit, maxLength: 8 }).map((name) => `$.${name}`),
);

test(`property (seed ${seed}): verify-pact refuses a body rule's path exactly when the official Verifier refuses the file`, async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets?limit=1`, { headers: freeKey });
  const recorded = fake.control.pact();
  await fc.assert(
    fc.asyncProperty(anyPath, async (path) => {
      const pact = structuredClone(recorded) as unknown as {
        interactions: { response: { matchingRules: { body: Record<string, unknown> } } }[];
      };
      const rules = pact.interactions[0]?.response.matchingRules.body ?? {};
      rules[path] = { combine: 'AND', matchers: [{ match: 'type' }] };
      const file = writePact(pact);
      const official = await verifier.verify(file, await serve(await createFake()));
      let ours = true;
      try {
        readPact(JSON.parse(JSON.stringify(pact)));
      } catch (error) {
        if (!(error instanceof PactFileError)) throw error;
        ours = false;
      }
      expect({ path, loads: ours }).toEqual({ path, loads: official.loaded });
    }),
    {
      seed,
      numRuns: 120,
      endOnFailure: true,
      examples: [['$.first name'], ["$['first name']"], ['$._.V00u<'], ["$['a'b']"], ["$['']"]],
    },
  );
}, 180_000);

test('the harness fuzzing the fake (extra fields of any name, edge values) records a pact the official Verifier loads', async () => {
  const target = await directFakeTarget();
  await runSuite({ client: createRunClient(target, { seed }), runs: 5 });
  const pact = target.fake.control.pact();
  // The harness's bodies did carry keys a plain `$.name` path cannot name.
  const paths = pact.interactions.flatMap((each) =>
    Object.keys(each.request.matchingRules?.body ?? {}),
  );
  expect(paths.some((path) => path.includes("['"))).toBe(true);
  const verdict = await verifier.verify(writePact(pact), await serve(await createFake()));
  expect(verdict.loaded, verdict.message).toBe(true);
}, 180_000);
