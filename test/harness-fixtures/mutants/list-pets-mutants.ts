/** Single-fault variants of the fake for `GET /pets` (listPets). */
import { before, listedWithoutCategory, withQuery } from './fault-helpers.ts';
import { withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Mutants of `GET /pets` (listPets). */
export const listPetsMutants: readonly Mutant[] = [
  mutant({
    name: 'default-limit-25',
    fault: 'GET /pets without limit returns up to 25 pets',
    expect: 'listPets.defaultLimit',
    wrap: before('listPets', (call) =>
      withQuery(call, (query) => {
        if (!query.has('limit')) query.set('limit', '25');
      }),
    ),
  }),
  mutant({
    name: 'limit-ignored',
    fault: 'GET /pets ignores limit (always the default page)',
    expect: 'listPets.limitRespected',
    wrap: before('listPets', (call) => withQuery(call, (query) => query.delete('limit'))),
  }),
  mutant({
    name: 'limit-above-100-honoured',
    fault: 'GET /pets?limit=150 returns 150 pets',
    expect: 'listPets.limitOutOfRange',
    wrap: before('listPets', async (call) => {
      const limit = Number(call.url.searchParams.get('limit'));
      if (!(limit > 100)) return call.request;
      const forwarded = await call.forward(withQuery(call, (query) => query.set('limit', '100')));
      if (forwarded.status !== 200) return forwarded;
      return withJson(forwarded, () => call.fake.control.snapshot().pets.slice(0, limit));
    }),
  }),
  mutant({
    name: 'status-filter-ignored',
    fault: 'GET /pets ignores the status filter',
    expect: 'listPets.statusFilter',
    wrap: before('listPets', (call) => withQuery(call, (query) => query.delete('status'))),
  }),
  mutant({
    name: 'status-filter-swapped',
    fault: 'GET /pets?status=sold returns pending pets',
    expect: 'listPets.statusFilter',
    wrap: before('listPets', (call) =>
      withQuery(call, (query) => {
        if (query.get('status') === 'sold') query.set('status', 'pending');
      }),
    ),
  }),
  mutant({
    name: 'listed-pet-without-category',
    fault: 'GET /pets drops categoryId from every pet',
    expect: 'listPets.responseShape',
    wrap: listedWithoutCategory,
  }),
];
