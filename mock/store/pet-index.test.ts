import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Pet } from '../base/contract/types.ts';
import { createPetIndex } from './pet-index.ts';

const pet = (id: number): Pet => ({ id, name: `pet ${id}`, categoryId: 1, status: 'available' });

/** Ids as the store adds them (rising: a sorted load, then creates) or in any order, near and far. */
const ids = fc.oneof(
  fc
    .array(fc.integer({ min: -20, max: 3000 }), { maxLength: 300 })
    .map((list) => [...new Set(list)].sort((a, b) => a - b)),
  fc
    .array(fc.oneof(fc.integer({ min: -50, max: 5000 }), fc.maxSafeNat()), { maxLength: 100 })
    .map((list) => [...new Set(list)]),
);

const probes = fc.array(
  fc.oneof(fc.integer({ min: -5, max: 5100 }), fc.maxSafeNat(), fc.double({ noNaN: false })),
  { maxLength: 50 },
);

test('the index answers get, has and size as a Map of the same pets does, whatever the ids', () => {
  fc.assert(
    fc.property(ids, probes, (added, probed) => {
      const index = createPetIndex();
      const model = new Map<number, Pet>();
      for (const id of added) {
        // As the store does: a taken id is refused before it reaches the index.
        expect(index.has(id)).toBe(model.has(id));
        index.set(id, pet(id));
        model.set(id, pet(id));
      }
      expect(index.size).toBe(model.size);
      for (const id of [...added, ...probed]) {
        expect(index.get(id)).toEqual(model.get(id));
        expect(index.has(id)).toBe(model.has(id));
      }
    }),
    { seed: 2026, numRuns: 300 },
  );
});
