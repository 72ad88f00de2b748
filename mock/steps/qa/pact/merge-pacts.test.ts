/**
 * mergePacts: the pacts of a suite's parts (each vitest test file has its own fake) as one file.
 * The properties run on small hand-made pacts; one test merges what two real fakes recorded.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { mergePacts, PactMergeError } from './merge-pacts.ts';
import type { PactInteraction } from './pact-interaction.ts';
import type { PactFile } from './pact-step.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };

/** An interaction that says which part, and which place in it, it came from. */
function interaction(key: string, from: string): PactInteraction {
  return {
    type: 'Synchronous/HTTP',
    key,
    description: from,
    providerStates: [],
    pending: false,
    request: { method: 'GET', path: '/pets' },
    response: { status: 200, headers: {}, matchingRules: {} },
  };
}

function pactOf(keys: readonly string[], part: number, notRecorded = 0): PactFile {
  return {
    consumer: { name: 'web-app' },
    provider: { name: 'petstore' },
    interactions: keys.map((key, at) => interaction(key, `part ${part} #${at}`)),
    metadata: {
      pactSpecification: { version: '4.0' },
      baseUrlIncludes: '/v1',
      petstoreFake: { recordedBy: 'petstore-fake', notRecorded },
    },
  };
}

/** Parts as a recorder writes them: within a part, each key once. */
const partsArb = fc.array(fc.uniqueArray(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f')), {
  minLength: 1,
  maxLength: 6,
});

test('the merged pact holds each key of every part once, the first part to hold it giving it', () => {
  fc.assert(
    fc.property(partsArb, (parts) => {
      const pacts = parts.map((keys, part) => pactOf(keys, part));
      const merged = mergePacts(pacts);
      const keys = merged.interactions.map((each) => each.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(new Set(keys)).toEqual(new Set(parts.flat()));
      for (const each of merged.interactions) {
        const part = parts.findIndex((partKeys) => partKeys.includes(each.key));
        expect(each.description).toBe(`part ${part} #${parts[part]?.indexOf(each.key)}`);
      }
    }),
    { seed: 21, numRuns: 300 },
  );
});

test('merging one pact gives it back, and merging is associative', () => {
  fc.assert(
    fc.property(partsArb, partsArb, partsArb, (a, b, c) => {
      const [pa, pb, pc] = [a, b, c].map((parts) => mergePacts(parts.map((k, i) => pactOf(k, i))));
      if (pa === undefined || pb === undefined || pc === undefined) throw new Error('no pacts');
      expect(mergePacts([pa])).toEqual(pa);
      expect(mergePacts([mergePacts([pa, pb]), pc])).toEqual(
        mergePacts([pa, mergePacts([pb, pc])]),
      );
    }),
    { seed: 21, numRuns: 200 },
  );
});

test("the fake's own metadata is kept, with what each part left out summed", () => {
  const merged = mergePacts([pactOf(['a'], 0, 2), pactOf(['b'], 1, 3)]);
  expect(merged.metadata).toEqual({
    pactSpecification: { version: '4.0' },
    baseUrlIncludes: '/v1',
    petstoreFake: { recordedBy: 'petstore-fake', notRecorded: 5 },
  });
});

test('two fakes, two parts of a suite: the merged pact holds what each recorded, shared shapes once', async () => {
  const first = await createFake();
  const second = await createFake();
  await first.fetch(`${api}/pets?limit=2`, { headers: free });
  await first.fetch(`${api}/pets/1`, { headers: free });
  await second.fetch(`${api}/pets?limit=7`, { headers: free }); // the same shape as the first's
  await second.fetch(`${api}/pets/99999`, { headers: free });
  await second.fetch(`${api}/pets`);
  const names = { consumer: 'web-app', provider: 'petstore' };
  const merged = mergePacts([first.control.pact(names), second.control.pact(names)]);
  expect(merged.interactions.map((each) => each.description)).toEqual([
    'listPets 200: GET /pets?limit (a key on the free plan, pets exist)',
    'getPet 200: GET /pets/{petId} (a key on the free plan, pet 1 exists)',
    'getPet 404 not_found: GET /pets/{petId} (a key on the free plan, pet 99999 does not exist)',
    'listPets 401 unauthorized: GET /pets (no key)',
  ]);
  expect(merged.consumer).toEqual({ name: 'web-app' });
  expect(merged.metadata).toEqual(first.control.pact(names).metadata);
});

test('pacts of other names, another specification or base path, or none at all, throw a PactMergeError', () => {
  const pact = pactOf(['a'], 0);
  const cases: [readonly PactFile[], RegExp][] = [
    [[], /^petstore-fake: mergePacts: no pacts to merge/],
    [
      [pact, { ...pact, consumer: { name: 'mobile-app' } }],
      /pact 1 is between consumer "mobile-app" and provider "petstore", pact 0 between consumer "web-app" and provider "petstore"; .*fake\.control\.pact\(\{ consumer, provider \}\)/,
    ],
    [
      [pact, { ...pact, provider: { name: 'billing' } }],
      /pact 1 is between consumer "web-app" and provider "billing"/,
    ],
    [
      [pact, { ...pact, metadata: { ...pact.metadata, pactSpecification: { version: '3.0.0' } } }],
      /pact 1 states Pact specification \{"version":"3\.0\.0"\}, pact 0 \{"version":"4\.0"\}/,
    ],
    [
      [pact, { ...pact, metadata: { ...pact.metadata, baseUrlIncludes: '/v2' } }],
      /pact 1's paths are relative to "\/v2", pact 0's to "\/v1"/,
    ],
  ];
  for (const [pacts, message] of cases) {
    expect(() => mergePacts(pacts)).toThrow(PactMergeError);
    expect(() => mergePacts(pacts)).toThrow(message);
  }
});
