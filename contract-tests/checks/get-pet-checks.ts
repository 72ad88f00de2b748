/** Checks of `GET /pets/{petId}` (getPet, deprecated): 200 and 404 rows, malformed ids, sunset. */

import { malformedId, unknownId } from '../arbitraries/pet-id.ts';
import { int64 } from '../contract/interface-facts.ts';
import { activeCheck, fail, priorities } from './check.ts';
import { expectJudged, expectStatus } from './expect.ts';
import { foundJudge, getPetShapeJudge, malformedIdJudge } from './judges/get-pet-judges.ts';
import { forAll } from './property.ts';
import { getPetRequest } from './requests.ts';

/** 200 with a Pet for a listed id. */
export const getPetResponseShape = activeCheck({
  id: 'getPet.responseShape',
  title: 'answers 200 with a Pet for the id of a listed pet',
  source: 'GET /pets/{petId}, responses: 200 Pet',
  priority: priorities.getPet,
  cost: { fixed: 0, perRun: 0 },
  shares: ['fullListing', 'listedPet'],
  judges: getPetShapeJudge,
  async run(context) {
    const { row, byId } = await context.listedPet();
    expectStatus(byId, [200], `GET /pets/${row.id} of a listed pet`);
    expectJudged(byId, getPetShapeJudge, `GET /pets/${row.id}`);
  },
});

/** The pet read by id is the pet the listing showed. */
export const getPetFound = activeCheck({
  id: 'getPet.found',
  title: 'returns the same pet the listing shows for that id (until the 5 December 2030 removal)',
  source: 'GET /pets/{petId}, 200 "Animal exists"; rule 1 (removal on 5 December 2030)',
  needs: ['semantics'],
  priority: priorities.getPet,
  cost: { fixed: 0, perRun: 0 },
  shares: ['fullListing', 'listedPet'],
  judges: foundJudge,
  async run(context) {
    const { listing, row, byId } = await context.listedPet();
    expectStatus(byId, [200], `GET /pets/${row.id} of a listed pet`);
    // The proxy's judge, shown the listing and then the read by id, as it would see them.
    const judge = foundJudge.start();
    judge.observe(listing);
    const problem = judge.observe(byId);
    if (problem !== undefined) fail(problem, byId);
  },
});

/** 404 with an Error for ids no pet has. */
export const getPetNotFound = activeCheck({
  id: 'getPet.notFound',
  title: 'answers 404 for an id no pet has',
  source: 'GET /pets/{petId}, responses: 404 Error; Errors table, 404',
  needs: ['semantics'],
  priority: priorities.getPet,
  cost: { fixed: 0, perRun: 1, examples: 1 },
  async run(context) {
    await forAll(
      context,
      unknownId(),
      async (id) => {
        const exchange = await context.send(getPetRequest(id));
        expectStatus(exchange, [404], `GET /pets/${id}, an id no pet has`);
      },
      { examples: [int64.max.toString()] },
    );
  },
});

/** Ids that are not int64: a client error, never a pet or a server error. */
export const getPetMalformedId = activeCheck({
  id: 'getPet.malformedId',
  title: 'answers a 4xx error for a petId that is not an int64',
  source: 'GET /pets/{petId}, path parameter petId: integer, int64',
  needs: ['semantics'],
  priority: priorities.getPet,
  cost: { fixed: 0, perRun: 1, examples: 2 },
  judges: malformedIdJudge,
  async run(context) {
    await forAll(
      context,
      malformedId(),
      async (id) => {
        const exchange = await context.send(getPetRequest(id));
        expectJudged(exchange, malformedIdJudge, `GET /pets/${encodeURIComponent(id)}`);
      },
      // A word, and the first integer past int64 (a server reading ids as doubles finds a pet).
      { examples: ['abc', (int64.max + 1n).toString()] },
    );
  },
});
