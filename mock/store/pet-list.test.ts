import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Pet } from '../base/contract/types.ts';
import { createPetList } from './pet-list.ts';

const pet = (id: number): Pet => ({ id, name: `pet ${id}`, categoryId: 1, status: 'available' });

test('pages in either order equal the sorted ids sliced, after any inserts and cached reads', () => {
  // The model: every id inserted so far, sorted; a page is its front (oldest first) or its
  // reversed back (newest first). Reads between inserts exercise the page cache.
  const step = fc.oneof(
    fc.record({ insert: fc.integer({ min: 1, max: 400 }) }),
    fc.record({
      limit: fc.integer({ min: 1, max: 100 }),
      order: fc.constantFrom('newest-first' as const, 'oldest-first' as const),
    }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
      const list = createPetList();
      const ids = new Set<number>();
      for (const each of steps) {
        if ('insert' in each) {
          if (ids.has(each.insert)) continue;
          ids.add(each.insert);
          list.insert(pet(each.insert));
          continue;
        }
        const sorted = [...ids].sort((a, b) => a - b);
        const expected =
          each.order === 'oldest-first'
            ? sorted.slice(0, each.limit)
            : sorted.reverse().slice(0, each.limit);
        expect(list.page(each.limit, each.order).map((one) => one.id)).toEqual(expected);
      }
    }),
    { seed: 38, numRuns: 300 },
  );
});

test('a newest-first page is the same array until a pet joins it', () => {
  const list = createPetList();
  for (let id = 1; id <= 10; id += 1) list.insert(pet(id));
  const page = list.page(5, 'newest-first');
  expect(list.page(5, 'newest-first')).toBe(page);
  list.insert(pet(11));
  expect(list.page(5, 'newest-first')).not.toBe(page);
  expect(list.page(5, 'newest-first').map((one) => one.id)).toEqual([11, 10, 9, 8, 7]);
});
