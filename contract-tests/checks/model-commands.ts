/**
 * The commands of the model-based run: create (valid or refused), get by id, list. Each runs
 * against the server, checks the answer against the model, then updates the model. Only what
 * the interface promises is asserted: a list holds at most `limit` pets, so a created pet is
 * not required to appear in it; when it does, it must be unchanged. Whether a listing keeps to
 * its `limit` and its `status` is listPets' to judge, on these listings too.
 */
import fc from 'fast-check';
import { onlyFields } from '../../mock/internal/entry.ts';
import { limitInRange } from '../arbitraries/list-query.ts';
import { newPetArbitraries, type SentPet, sentPet } from '../arbitraries/new-pet.ts';
import { type PetStatus, pageSize, petStatuses } from '../contract/interface-facts.ts';
import { newPetFieldNames, petFieldNames } from '../contract/pet-fields.ts';
import { checkPets } from '../contract/schemas.ts';
import { toJsonText } from '../http/exact-json.ts';
import { fail } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectCreated } from './created-pet.ts';
import { expectShape, expectStatus } from './expect.ts';
import type { ModelPet, PetModel } from './pet-model.ts';
import { createPetRequest, getPetRequest, listPetsRequest } from './requests.ts';
import { samePet, show } from './same-pet.ts';

/** The system under test, as the commands see it. */
export interface RealSystem {
  readonly context: CheckContext;
  /** A name no earlier command of the run used. */
  nextName(kind: 'pet' | 'refused'): string;
}

/** One command of the model-based run. */
export type PetCommand = fc.AsyncCommand<PetModel, RealSystem>;

/** A field's value in a command's description: `omitted`, digits, a word, or quoted text. */
function describe(value: unknown): string {
  if (value === undefined) return 'omitted';
  if (typeof value === 'bigint') return value.toString();
  return typeof value === 'string' && /^[\w-]+$/.test(value) ? value : show(value);
}

/** Creates a pet from drawn NewPet fields; `name` is the suffix of the run's next name. */
function createCommand(fields: SentPet): PetCommand {
  const { name: suffix, ...others } = fields;
  return {
    check: () => true,
    async run(model, real) {
      const sent: SentPet = { ...fields, name: `${real.nextName('pet')}${suffix}` };
      const exchange = await real.context.send(createPetRequest(toJsonText(sent)));
      const pet = expectCreated(exchange, sent, 'create');
      if (model.pets.has(pet.id) || model.otherIds.has(pet.id))
        fail(`create assigned id ${pet.id}, which another pet already has`, exchange);
      model.pets.set(pet.id, onlyFields(pet, petFieldNames));
    },
    toString: () => {
      // Every other NewPet field, set or omitted (an omitted one is not in `others`).
      const rest = newPetFieldNames
        .filter((field) => field !== 'name')
        .map((field) => `${field} ${describe(others[field])}`);
      return `create(${[show(suffix), ...rest].join(', ')})`;
    },
  };
}

type Refusal = 'no categoryId' | 'categoryId as string' | 'unknown status';

function refusedCreateCommand(refusal: Refusal): PetCommand {
  return {
    check: () => true,
    async run(model, real) {
      const name = real.nextName('refused');
      const body: Record<string, unknown> = { name, categoryId: 1n };
      if (refusal === 'no categoryId') delete body.categoryId;
      if (refusal === 'categoryId as string') body.categoryId = '1';
      if (refusal === 'unknown status') body.status = 'adopted';
      const exchange = await real.context.send(createPetRequest(toJsonText(body)));
      expectStatus(exchange, [400], `create with ${refusal}`);
      model.rejectedNames.add(name);
    },
    toString: () => `createRefused(${refusal})`,
  };
}

function getCommand(pick: number): PetCommand {
  const chosen = (model: PetModel): ModelPet | undefined =>
    [...model.pets.values()][pick % Math.max(1, model.pets.size)];
  return {
    check: (model) => model.pets.size > 0,
    async run(model, real) {
      const pet = chosen(model);
      if (pet === undefined) return;
      const exchange = await real.context.send(getPetRequest(pet.id));
      const response = expectStatus(exchange, [200], `get a created pet (${pet.id})`);
      const difference = samePet(pet, response.exact);
      if (difference !== undefined)
        fail(`GET /pets/${pet.id} does not return the created pet: ${difference}`, exchange);
    },
    toString: () => `get(created #${pick})`,
  };
}

function listCommand(status: PetStatus | undefined, limit: number | undefined): PetCommand {
  return {
    check: () => true,
    async run(model, real) {
      const query = {
        ...(status === undefined ? {} : { status }),
        ...(limit === undefined ? {} : { limit }),
      };
      const exchange = await real.context.send(listPetsRequest(query));
      const response = expectStatus(exchange, [200], 'list');
      expectShape(exchange, checkPets, 'list');
      const rows = response.exact as { id: bigint; name: unknown; status?: unknown }[];
      // The page size and the filter are listPets' rules: their judges hold this listing too
      // (runner/judge-watch.ts). The model judges what only it knows: which pets were created.
      const ids = new Set<bigint>();
      for (const row of rows) {
        if (ids.has(row.id)) fail(`list shows id ${row.id} twice`, exchange);
        ids.add(row.id);
        if (typeof row.name === 'string' && model.rejectedNames.has(row.name))
          fail(
            `pet ${row.id} is named ${show(row.name)}, from a creation the server refused with 400`,
            exchange,
          );
        const mine = model.pets.get(row.id);
        if (mine === undefined) model.otherIds.add(row.id);
        else {
          const difference = samePet(mine, row);
          if (difference !== undefined)
            fail(`list shows created pet ${row.id} changed: ${difference}`, exchange);
        }
      }
    },
    toString: () => `list(status ${status ?? 'omitted'}, limit ${limit ?? 'omitted'})`,
  };
}

/** The arbitraries of every command, weighted towards creations and filtered lists. */
export function petCommands(): fc.Arbitrary<PetCommand>[] {
  const status = fc.option(fc.constantFrom(...petStatuses), { nil: undefined });
  return [
    fc
      .tuple(...newPetArbitraries(fc.stringMatching(/^[A-Za-z0-9 ]{0,12}$/)))
      .map((values) => createCommand(sentPet(values))),
    fc
      .constantFrom<Refusal>('no categoryId', 'categoryId as string', 'unknown status')
      .map(refusedCreateCommand),
    fc.nat().map(getCommand),
    fc
      .tuple(
        status,
        fc.option(fc.oneof(fc.constant(pageSize.max), limitInRange()), { nil: undefined }),
      )
      .map(([chosen, limit]) => listCommand(chosen, limit)),
  ];
}
