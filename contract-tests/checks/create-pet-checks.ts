/** Checks of `POST /pets` (createPet): the 201 and 400 rows, rule 1, and bodies at the edges. */
import type fc from 'fast-check';
import {
  type BodyCase,
  edgeNameBody,
  extraFieldsBody,
  int64CategoryBody,
  invalidValueBody,
  malformedJsonBody,
  missingRequiredBody,
  notANewPetBody,
  validBody,
} from '../arbitraries/new-pet.ts';
import { checkPet } from '../contract/schemas.ts';
import type { Exchange } from '../http/exchange.ts';
import { forAll } from '../runner/property.ts';
import { activeCheck } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectCreated, expectReadBack } from './created-pet.ts';
import { expectNoFault, expectShape, expectStatus } from './expect.ts';
import { createPetRequest } from './requests.ts';

function post(context: CheckContext, body: BodyCase): Promise<Exchange> {
  return context.send(createPetRequest(body.body, body.valid));
}

/** Sends bodies the interface says get 400. */
async function expectAll400(context: CheckContext, bodies: fc.Arbitrary<BodyCase>): Promise<void> {
  await forAll(context, bodies, async (body) => {
    expectStatus(await post(context, body), [400], `POST /pets ${body.label}`);
  });
}

/** Sends bodies the interface leaves open: 201 with the exact pet (read back), or 400. */
async function expectStoredOr400(
  context: CheckContext,
  bodies: fc.Arbitrary<BodyCase>,
): Promise<void> {
  await forAll(context, bodies, async (body) => {
    const exchange = await post(context, body);
    const response = expectNoFault(exchange, `POST /pets ${body.label}`);
    if (response.status === 400 || body.sent === undefined) {
      expectStatus(exchange, [201, 400], `POST /pets ${body.label}`);
      return;
    }
    const created = expectCreated(exchange, body.sent, `POST /pets ${body.label}`);
    await expectReadBack(context, created);
  });
}

/** 201 with a Pet carrying an id. */
export const createPetCreated = activeCheck({
  id: 'createPet.created',
  title: 'answers 201 with a Pet carrying its assigned id for a valid NewPet',
  source: 'POST /pets, responses: 201 Pet',
  needs: ['writes'],
  cost: { fixed: 0, perRun: 1 },
  async run(context) {
    await forAll(context, validBody(context.runPrefix), async (body) => {
      const exchange = await post(context, body);
      expectStatus(exchange, [201], 'POST /pets with a valid NewPet');
      expectShape(exchange, checkPet, 'POST /pets');
    });
  },
});

/** The created pet carries what was sent and reads back unchanged. */
export const createPetRoundTrip = activeCheck({
  id: 'createPet.roundTrip',
  title: 'a created pet carries the sent fields and GET /pets/{id} returns it unchanged',
  source: 'POST /pets, 201 "Animal added"; GET /pets/{petId}, 200 "Animal exists"',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 2 },
  async run(context) {
    await forAll(context, validBody(context.runPrefix), async (body) => {
      const sent = body.sent;
      if (sent === undefined) return;
      const created = expectCreated(
        await post(context, body),
        sent,
        'POST /pets with a valid NewPet',
      );
      await expectReadBack(context, created);
    });
  },
});

/** Rule 1: 400 when name or categoryId is absent. */
export const createPetRequiredFields = activeCheck({
  id: 'createPet.requiredFields',
  title: 'answers 400 when name or categoryId is absent',
  source: 'POST /pets, rule 1; responses: 400 Error',
  needs: ['writes'],
  cost: { fixed: 0, perRun: 1 },
  run: (context) => expectAll400(context, missingRequiredBody(context.runPrefix)),
});

/** 400 for wrong types, unknown statuses, integers outside int64. */
export const createPetInvalidValues = activeCheck({
  id: 'createPet.invalidValues',
  title:
    'answers 400 for a field of the wrong type, an unknown status or a categoryId outside int64',
  source: 'POST /pets, responses: 400 "containing invalid values"; NewPet field types',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 1 },
  run: (context) => expectAll400(context, invalidValueBody(context.runPrefix)),
});

/** 400 when the body is missing or not a JSON object. */
export const createPetNotANewPet = activeCheck({
  id: 'createPet.bodyRequired',
  title: 'answers 400 when the body is missing, empty or not a JSON object',
  source: 'POST /pets, "The request body is required, JSON, shaped as NewPet"; 400 row',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 1 },
  run: (context) => expectAll400(context, notANewPetBody()),
});

/** Not JSON at all: a client error. */
export const createPetMalformedJson = activeCheck({
  id: 'createPet.malformedJson',
  title: 'rejects a body that is not JSON with a 4xx error',
  source:
    'POST /pets, "The request body is required, JSON"; Errors (the exact status is not shown)',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 1 },
  async run(context) {
    await forAll(context, malformedJsonBody(context.runPrefix), async (body) => {
      expectStatus(
        await post(context, body),
        (status) => status >= 400 && status < 500,
        `POST /pets ${body.label}`,
      );
    });
  },
});

/** Extra fields: not shown; 201 with the pet as sent or 400, never a 5xx, never a client-chosen id clash. */
export const createPetExtraFields = activeCheck({
  id: 'createPet.extraFields',
  title: 'a NewPet with extra fields gets 201 (stored as sent) or 400, never a server error',
  source: 'NewPet (extra fields are not shown); POST /pets responses',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 2 },
  run: (context) => expectStoredOr400(context, extraFieldsBody(context.runPrefix)),
});

/** Names the interface does not constrain: long, non-ASCII, control characters. */
export const createPetNameEdges = activeCheck({
  id: 'createPet.nameEdgeCases',
  title: 'very long, non-ASCII or control-character names get 201 (stored exactly) or 400',
  source: 'NewPet.name (length limits and constraints are not shown)',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 2 },
  run: (context) =>
    expectStoredOr400(context, edgeNameBody(context.runPrefix, context.target.loopback)),
});

/** categoryId at the int64 edges: stored with every digit, or refused. */
export const createPetInt64CategoryId = activeCheck({
  id: 'createPet.int64CategoryId',
  title: 'categoryId at the int64 edges gets 201 with every digit kept, or 400',
  source: 'NewPet.categoryId: integer, int64 (whether it must name a category is not shown)',
  needs: ['writes', 'semantics'],
  cost: { fixed: 0, perRun: 2 },
  run: (context) => expectStoredOr400(context, int64CategoryBody(context.runPrefix)),
});
