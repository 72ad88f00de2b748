/** Checks of `GET /pets` (listPets): response rows, rules 1 and 2, the page size limits. */

import fc from 'fast-check';
import {
  knownStatus,
  limitInRange,
  limitOutOfRange,
  outOfRangeStatusPairs,
  statusLimitExamples,
  statusLimitPairs,
  unknownStatus,
  unknownStatusLimitPairs,
} from '../arbitraries/list-query.ts';
import { pageSize } from '../contract/interface-facts.ts';
import { checkPets } from '../contract/schemas.ts';
import { activeCheck, notExercised, priorities } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectJudged, expectNoFault, expectShape, expectStatus } from './expect.ts';
import {
  defaultLimitJudge,
  limitJudge,
  limitOutOfRangeJudge,
  listPetsShapeJudge,
  statusFilterJudge,
  unknownStatusJudge,
} from './judges/list-pets-judges.ts';
import { forAll } from './property.ts';
import { listPetsRequest } from './requests.ts';

/** Rows of Pet objects in a listing, as parsed JSON. */
type Rows = readonly { readonly status?: unknown }[];

/**
 * How many pets the shared full listing (`GET /pets?limit=100`) shows: what a listing could
 * hold at most, up to 100 (the interface shows no way to count past a page); undefined when it
 * gave no list.
 */
async function listedCount(context: CheckContext): Promise<number | undefined> {
  const rows = (await context.listing()).response?.json;
  return Array.isArray(rows) ? rows.length : undefined;
}

/**
 * Ends a check not exercised when at most `most` pets match (the full listing's count): then no
 * listing it sent could have shown its violation, which `showing` names.
 */
async function needMoreThan(context: CheckContext, most: number, showing: string): Promise<void> {
  const count = await listedCount(context);
  const listed = `GET /pets?limit=${pageSize.max}`;
  if (count === undefined)
    notExercised(`${listed} gave no list, so nothing shows whether ${showing} could appear`);
  if (count <= most)
    notExercised(
      `${showing} could not appear: ${count === 1 ? '1 pet matches' : `${count} pets match`} (${listed} listed ${count})`,
    );
}

/** GET /pets answers 200 with a JSON array of Pet. */
export const listPetsResponseShape = activeCheck({
  id: 'listPets.responseShape',
  title: 'answers 200 with a JSON array of Pet',
  source: 'GET /pets, responses: 200 Pets',
  priority: priorities.listPets,
  // The default listing is the run's preflight; the full listing is shared with getPet checks.
  cost: { fixed: 0, perRun: 0 },
  shares: ['fullListing'],
  judges: listPetsShapeJudge,
  async run(context) {
    for (const exchange of [await context.defaultListing(), await context.listing()]) {
      expectStatus(exchange, [200], 'GET /pets with a valid key');
      expectJudged(exchange, listPetsShapeJudge, 'GET /pets');
    }
  },
});

/** Rule 1: at most 20 pets when limit is omitted. */
export const listPetsDefaultLimit = activeCheck({
  id: 'listPets.defaultLimit',
  title: `returns at most ${pageSize.default} pets when limit is omitted`,
  source: 'GET /pets, rule 1; Limits, page size default 20',
  priority: priorities.listPets,
  cost: { fixed: 0, perRun: 0 },
  // The full listing says whether more than 20 pets match, so a page above 20 could show.
  shares: ['fullListing'],
  judges: defaultLimitJudge,
  async run(context) {
    const exchange = await context.defaultListing();
    expectStatus(exchange, [200], 'GET /pets');
    expectShape(exchange, checkPets, 'GET /pets');
    expectJudged(exchange, defaultLimitJudge);
    await needMoreThan(context, pageSize.default, `a page above ${pageSize.default}`);
  },
});

/** `limit` from 1 to 100 caps the page. */
export const listPetsLimitRespected = activeCheck({
  id: 'listPets.limitRespected',
  title: 'returns at most `limit` pets for every limit from 1 to 100',
  source: 'GET /pets, query limit (minimum 1, maximum 100)',
  priority: priorities.listPets,
  cost: { fixed: 0, perRun: 1, examples: 2 },
  // limit=100 without status: the shared full listing, at no cost of its own.
  shares: ['fullListing'],
  judges: limitJudge,
  async run(context) {
    // Its status and shape are listPets.responseShape's to judge; here only its length.
    expectJudged(await context.listing(), limitJudge);
    await forAll(
      context,
      limitInRange(),
      async (limit) => {
        const exchange = await context.send(listPetsRequest({ limit }));
        expectStatus(exchange, [200], `GET /pets?limit=${limit}`);
        expectShape(exchange, checkPets, `GET /pets?limit=${limit}`);
        expectJudged(exchange, limitJudge);
      },
      // The smallest page, where a server that ignores limit shows it, and the default page
      // size sent explicitly (a limit above 100 is listPets.limitOutOfRange's; omitted is
      // listPets.defaultLimit's, 100 the full listing's).
      { examples: [pageSize.min, pageSize.default] },
    );
    // limit=1 is always sent: a page above it shows once two pets match.
    await needMoreThan(context, pageSize.min, `a page above limit=${pageSize.min}`);
  },
});

/** Rule 2: only pets with the given status. */
export const listPetsStatusFilter = activeCheck({
  id: 'listPets.statusFilter',
  title: 'returns only pets with the given status',
  source: 'GET /pets, rule 2; query status',
  needs: ['semantics'],
  priority: priorities.listPets,
  cost: { fixed: 0, perRun: 1, examples: statusLimitExamples },
  // Without writes, createPet.refusedLeavesNoPet does not send each status with limit 100.
  readOnlyCost: { fixed: 0, perRun: 1, examples: statusLimitPairs.length },
  // The full listing says whether any pet exists whose status a query would have to leave out.
  shares: ['fullListing'],
  judges: statusFilterJudge,
  async run(context) {
    const query = fc.record({
      status: knownStatus(),
      limit: fc.option(limitInRange(), { nil: undefined }),
    });
    await forAll(
      context,
      query,
      async ({ status, limit }) => {
        const exchange = await context.send(listPetsRequest({ status, limit }));
        const query = `status=${status}${limit === undefined ? '' : `&limit=${limit}`}`;
        expectStatus(exchange, [200], `GET /pets?${query}`);
        expectShape(exchange, checkPets, 'GET /pets');
        // The page size is listPets.limitRespected's and listPets.defaultLimit's to judge: their
        // judges hold these listings too (runner/judge-watch.ts).
        expectJudged(exchange, statusFilterJudge);
      },
      // Each status with limit omitted, 1 and 20, and with limit 100 unless the run writes:
      // createPet.refusedLeavesNoPet then sends those three and checks the filter on them.
      {
        examples: statusLimitPairs.slice(
          0,
          Math.max(context.writes ? statusLimitExamples : statusLimitPairs.length, context.runs),
        ),
      },
    );
    // Every status is queried, so any listed pet is one some query had to leave out.
    await needMoreThan(context, 0, 'a pet of another status');
  },
});

/** Out-of-range limits: no 5xx, and never a page above 100. */
export const listPetsLimitOutOfRange = activeCheck({
  id: 'listPets.limitOutOfRange',
  title: 'a limit outside 1..100 gets no server error and never more than 100 pets',
  source: 'Limits, page size maximum 100 (the answer to a bad limit is not shown)',
  needs: ['semantics'],
  priority: priorities.listPets,
  cost: { fixed: 0, perRun: 1, examples: 2 },
  judges: limitOutOfRangeJudge,
  async run(context) {
    const query = fc.record({
      limit: limitOutOfRange(),
      status: fc.option(knownStatus(), { nil: undefined }),
    });
    // What an answer to a limit above 100 showed: a refusal, a full page, or the most it held.
    let evidence: string | undefined;
    let most: { sent: string; rows: number } | undefined;
    await forAll(
      context,
      query,
      async ({ limit, status }) => {
        const exchange = await context.send(listPetsRequest({ limit, status }));
        const sent = `GET /pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}`;
        const response = expectNoFault(exchange, sent);
        const above = /^\d+$/.test(limit) && Number(limit) > pageSize.max;
        expectJudged(exchange, limitOutOfRangeJudge);
        if (response.status >= 200 && response.status < 300) {
          const rows = expectShape(exchange, checkPets, sent) as Rows;
          if (above && rows.length === pageSize.max)
            evidence ??= `${sent} answered ${pageSize.max} pets: more matched, and the page stopped at ${pageSize.max}`;
          if (above && rows.length > (most?.rows ?? -1)) most = { sent, rows: rows.length };
        } else if (above) evidence ??= `${sent} was refused (${response.status})`;
      },
      // Just past each end of the range, with and without a status (pairwise as the runs allow;
      // never fewer than the two ends, the declared examples); 101 without a filter first, where
      // the most pets match.
      {
        examples: outOfRangeStatusPairs.slice(0, Math.max(2, context.runs)),
      },
    );
    if (evidence !== undefined) context.note(evidence);
    else
      notExercised(
        most === undefined
          ? `no answer to a limit above ${pageSize.max} was a page`
          : `no listing could exceed ${pageSize.max}: ${most.rows === 1 ? '1 pet matches' : `${most.rows} pets match`} (${most.sent} listed ${most.rows})`,
      );
  },
});

/** Unknown status values: no 5xx; any error is an Error body (see errors.bodyShape). */
export const listPetsUnknownStatus = activeCheck({
  id: 'listPets.unknownStatus',
  title: 'a status that is not a PetStatus gets no server error',
  source: 'GET /pets, query status (the answer to a bad status is not shown)',
  needs: ['semantics'],
  priority: priorities.listPets,
  cost: { fixed: 0, perRun: 1, examples: 1 },
  judges: unknownStatusJudge,
  async run(context) {
    const query = fc.record({
      status: unknownStatus(),
      limit: fc.option(limitInRange(), { nil: undefined }),
    });
    await forAll(
      context,
      query,
      async ({ status, limit }) => {
        const exchange = await context.send(listPetsRequest({ status, limit }));
        const sent = `GET /pets?status=${status}${limit === undefined ? '' : `&limit=${limit}`}`;
        expectNoFault(exchange, sent);
        expectJudged(exchange, unknownStatusJudge, sent);
      },
      // An unknown status with each limit edge class, limit 100 first (one run: that pair).
      { examples: unknownStatusLimitPairs.slice(0, Math.max(1, context.runs)) },
    );
  },
});
