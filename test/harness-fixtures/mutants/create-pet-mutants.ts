/** Single-fault variants of the fake for `POST /pets` (createPet). */
import { toJsonText } from '../../../contract-tests/http/exact-json.ts';
import { after, before, safeParse, withBody } from './fault-helpers.ts';
import { intercept, rebuild, withHeaders, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Ids a mutant that stores nothing makes up, far above the seed's. */
let fabricatedId = 900_000;

/** Mutants of `POST /pets` (createPet). */
export const createPetMutants: readonly Mutant[] = [
  mutant({
    name: 'create-answers-200',
    fault: 'POST /pets answers 200 instead of 201',
    expect: 'createPet.created',
    wrap: after((response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withHeaders(response, () => {}, 200)
        : response,
    ),
  }),
  mutant({
    name: 'create-without-id',
    fault: 'POST /pets answers without the assigned id',
    expect: 'createPet.created',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withJson(response, (pet) => {
            const { id: _, ...rest } = pet as Record<string, unknown>;
            return rest;
          })
        : response,
    ),
  }),
  mutant({
    name: 'created-pet-not-stored',
    fault: 'POST /pets answers 201 but stores nothing',
    expect: 'createPet.roundTrip',
    wrap: before('createPet', async (call) => {
      const probe = await call.forward(
        rebuild(call.request, { body: JSON.stringify({ name: 'probe' }) }),
      );
      if (probe.status === 401) return probe;
      const body = safeParse(call.body) as Record<string, unknown> | undefined;
      if (typeof body?.name !== 'string' || typeof body.categoryId !== 'bigint')
        return call.forward();
      fabricatedId += 1;
      const headers = new Headers(probe.headers);
      return new Response(toJsonText({ status: 'available', ...body, id: fabricatedId }), {
        status: 201,
        headers,
      });
    }),
  }),
  mutant({
    name: 'long-names-truncated',
    fault: 'POST /pets stores names cut to 64 characters',
    expect: 'createPet.nameEdgeCases',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (typeof body.name === 'string') body.name = body.name.slice(0, 64);
      }),
    ),
  }),
  mutant({
    name: 'category-id-rounded',
    fault: 'POST /pets rounds categoryId to a double (loses int64 digits past 2^53)',
    expect: 'createPet.int64CategoryId',
    wrap: before('createPet', (call) => {
      let rounded: string | undefined;
      try {
        rounded = JSON.stringify(JSON.parse(call.body));
      } catch {
        rounded = undefined;
      }
      return rebuild(call.request, { body: rounded ?? call.body });
    }),
  }),
  mutant({
    name: 'missing-name-accepted',
    fault: 'POST /pets without name stores a pet named "unnamed"',
    expect: 'createPet.requiredFields',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!('name' in body)) body.name = 'unnamed';
      }),
    ),
  }),
  mutant({
    name: 'missing-category-accepted',
    fault: 'POST /pets without categoryId stores categoryId 0',
    expect: 'createPet.requiredFields',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!('categoryId' in body)) body.categoryId = 0;
      }),
    ),
  }),
  mutant({
    name: 'string-category-coerced',
    fault: 'POST /pets accepts categoryId "5" as 5',
    expect: 'createPet.invalidValues',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (typeof body.categoryId === 'string' && /^\d+$/.test(body.categoryId))
          body.categoryId = BigInt(body.categoryId);
      }),
    ),
  }),
  mutant({
    name: 'unknown-status-accepted',
    fault: 'POST /pets drops an unknown status instead of refusing it',
    expect: 'createPet.invalidValues',
    wrap: before('createPet', (call) =>
      withBody(call, (body) => {
        if (!['available', 'pending', 'sold', undefined].includes(body.status as string))
          delete body.status;
      }),
    ),
  }),
  mutant({
    name: 'invalid-body-422',
    fault: 'POST /pets answers 422 instead of 400',
    expect: 'createPet.requiredFields',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 400
        ? withJson(response, (body) => ({ ...(body as object), status: 422 }), 422)
        : response,
    ),
  }),
  mutant({
    name: 'refused-create-stored',
    fault: 'POST /pets answers 400 for a body without categoryId but stores the pet anyway',
    expect: 'createPet.refusedLeavesNoPet',
    wrap: after(async (response, call) => {
      if (call.operation !== 'createPet' || response.status !== 400) return response;
      const body = safeParse(call.body) as Record<string, unknown> | undefined;
      if (typeof body?.name === 'string') {
        await call.forward(
          rebuild(call.request, { body: toJsonText({ name: body.name, categoryId: 1 }) }),
        );
      }
      return response;
    }),
  }),
  mutant({
    name: 'racy-id-assignment',
    fault: 'POST /pets reads the next id before storing, so simultaneous creates share an id',
    expect: 'createPet.concurrentCreates',
    wrap: (fake) =>
      intercept(fake, async (call) => {
        if (call.operation !== 'createPet') return call.forward();
        const guess = BigInt(fake.control.snapshot().nextId);
        await new Promise((resolve) => setTimeout(resolve, 5)); // the window of the race
        const response = await call.forward();
        const text = await response.text();
        const pet = response.status === 201 ? (safeParse(text) as { id?: unknown }) : undefined;
        const body =
          pet !== undefined && pet.id !== guess ? toJsonText({ ...pet, id: guess }) : text;
        const headers = new Headers(response.headers);
        headers.delete('Content-Length');
        return new Response(body, { status: response.status, headers });
      }),
  }),
  mutant({
    name: 'duplicate-ids',
    fault: 'POST /pets answers with id 1, which an existing pet has',
    expect: 'createPet.uniqueIds',
    wrap: after(async (response, call) =>
      call.operation === 'createPet' && response.status === 201
        ? withJson(response, (pet) => ({ ...(pet as object), id: 1 }))
        : response,
    ),
  }),
];
