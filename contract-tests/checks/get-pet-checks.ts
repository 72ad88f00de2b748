/** Checks of `GET /pets/{petId}` (getPet, deprecated): 200 and 404 rows, malformed ids, sunset. */

import { malformedId, unknownId } from '../arbitraries/pet-id.ts';
import { int64 } from '../contract/interface-facts.ts';
import { checkPet, checkPets } from '../contract/schemas.ts';
import type { Exchange } from '../http/exchange.ts';
import { forAll } from '../runner/property.ts';
import { activeCheck, fail, skip } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectShape, expectStatus } from './expect.ts';
import { getPetRequest } from './requests.ts';
import { samePet } from './same-pet.ts';

/** A pet from the shared listing, with its exact JSON, or undefined when the store is empty. */
async function someListedPet(
  context: CheckContext,
): Promise<{ exchange: Exchange; pet: unknown; exact: unknown }> {
  const exchange = await context.listing();
  expectStatus(exchange, [200], 'GET /pets?limit=100');
  const rows = expectShape(exchange, checkPets, 'GET /pets') as unknown[];
  const exactRows = exchange.response?.exact as unknown[] | undefined;
  if (rows.length === 0 || exactRows === undefined)
    skip('GET /pets lists no pet to read back (seed the server, or allow writes)');
  return { exchange, pet: rows[0], exact: exactRows[0] };
}

/** 200 with a Pet for a listed id. */
export const getPetResponseShape = activeCheck({
  id: 'getPet.responseShape',
  title: 'answers 200 with a Pet for the id of a listed pet',
  source: 'GET /pets/{petId}, responses: 200 Pet',
  cost: { fixed: 1, perRun: 0 },
  async run(context) {
    const listed = await someListedPet(context);
    const id = (listed.exact as { id: bigint }).id;
    const exchange = await context.send(getPetRequest(id));
    expectStatus(exchange, [200], `GET /pets/${id} of a listed pet`);
    expectShape(exchange, checkPet, `GET /pets/${id}`);
  },
});

/** The pet read by id is the pet the listing showed. */
export const getPetFound = activeCheck({
  id: 'getPet.found',
  title: 'returns the same pet the listing shows for that id (until the 5 December 2030 removal)',
  source: 'GET /pets/{petId}, 200 "Animal exists"; rule 1 (removal on 5 December 2030)',
  needs: ['semantics'],
  cost: { fixed: 1, perRun: 0 },
  async run(context) {
    const listed = await someListedPet(context);
    const id = (listed.exact as { id: bigint }).id;
    const exchange = await context.send(getPetRequest(id));
    const response = expectStatus(exchange, [200], `GET /pets/${id} of a listed pet`);
    const difference = samePet(listed.exact, response.exact);
    if (difference !== undefined)
      fail(`GET /pets/${id} differs from the listing: ${difference}`, exchange);
  },
});

/** 404 with an Error for ids no pet has. */
export const getPetNotFound = activeCheck({
  id: 'getPet.notFound',
  title: 'answers 404 for an id no pet has',
  source: 'GET /pets/{petId}, responses: 404 Error; Errors table, 404',
  needs: ['semantics'],
  cost: { fixed: 1, perRun: 1 },
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
  cost: { fixed: 0, perRun: 1 },
  async run(context) {
    await forAll(context, malformedId(), async (id) => {
      const exchange = await context.send(getPetRequest(id));
      expectStatus(
        exchange,
        (status) => status >= 400 && status < 500,
        `GET /pets/${encodeURIComponent(id)}, not an int64`,
      );
    });
  },
});
