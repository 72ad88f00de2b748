/**
 * What the `GET /pets/{petId}` checks judge, on any read by id whoever sent it: the 200 body is
 * a Pet (the OpenAPI document's), a petId that is not an int64 gets a 4xx, and a pet the traffic
 * listed or created before comes back by id as it was shown (no operation updates a pet).
 */
import { checkPet } from '../../contract/schemas.ts';
import type { ReceivedResponse } from '../../http/exchange.ts';
import type { StatefulJudge, StatelessJudge } from '../check.ts';
import { shapeProblem, statusProblem } from '../expect.ts';
import { samePet } from '../same-pet.ts';
import { int64Of, petIdOf } from './seen-request.ts';

/** Most pets one run (or one key on a proxy) remembers to compare reads by id with. */
const rememberedPets = 1_000;

/** GET /pets/{petId}, 200 Pet. */
export const getPetShapeJudge: StatelessJudge = {
  appliesTo: (exchange) => petIdOf(exchange) !== undefined && exchange.response?.status === 200,
  judge: (exchange) =>
    shapeProblem(
      exchange.response as ReceivedResponse,
      checkPet,
      `GET /pets/${petIdOf(exchange) ?? ''}`,
    ),
  unseen: 'no GET /pets/{petId} was answered 200',
};

/** petId is an int64: any other id is a client error, never a pet or a server error. */
export const malformedIdJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const id = petIdOf(exchange);
    return id !== undefined && int64Of(id) === undefined && exchange.response !== undefined;
  },
  judge: (exchange) =>
    statusProblem(
      exchange.response as ReceivedResponse,
      (status) => status >= 400 && status < 500,
      `GET /pets/${encodeURIComponent(petIdOf(exchange) ?? '')}, not an int64`,
    ),
  unseen: 'no GET /pets/{petId} with an id that is not an int64 was seen',
};

/** A pet as a listing or a 201 showed it, and which of them. */
interface Shown {
  readonly pet: unknown;
  readonly from: string;
}

/**
 * The pet read by id is the pet the traffic was shown under that id before (in a listing or by
 * its 201), and carries that id.
 */
export const foundJudge: StatefulJudge = {
  start: () => {
    const shown = new Map<bigint, Shown>();
    let compared = 0;
    const remember = (pet: unknown, from: string) => {
      const id = (pet as { id?: unknown } | null)?.id;
      if (typeof id !== 'bigint') return;
      // The latest showing wins; the oldest is forgotten first (memory per key stays bounded).
      if (!shown.delete(id) && shown.size >= rememberedPets)
        shown.delete(shown.keys().next().value as bigint);
      shown.set(id, { pet, from });
    };
    return {
      observe(exchange) {
        const response = exchange.response;
        if (response === undefined) return undefined;
        const operation = exchange.spec.operationId;
        if (operation === 'listPets' && response.status === 200 && Array.isArray(response.exact)) {
          for (const row of response.exact) remember(row, 'the listing');
          return undefined;
        }
        if (operation === 'createPet' && response.status === 201) {
          remember(response.exact, 'the pet its 201 returned');
          return undefined;
        }
        const asked = operation === 'getPet' ? int64Of(petIdOf(exchange) ?? '') : undefined;
        if (asked === undefined || response.status !== 200) return undefined;
        const earlier = shown.get(asked);
        if (earlier === undefined) return undefined;
        compared += 1;
        const difference = samePet(earlier.pet, response.exact);
        return difference === undefined
          ? undefined
          : `GET /pets/${asked} differs from ${earlier.from}: ${difference}`;
      },
      judged: () => compared,
    };
  },
  unseen: 'no pet the traffic listed or created was read back by id',
};
