/**
 * One mutant for each check no other mutant fails, so every check of the registry is shown
 * able to fail on the fake it passes on (mutants.test.ts: "every check has a mutant").
 */

import { petStatuses } from '../../../contract-tests/contract/interface-facts.ts';
import { newPetFieldNames } from '../../../contract-tests/contract/pet-fields.ts';
import {
  afterListing,
  before,
  listedWithoutCategory,
  safeParse,
  serverError,
} from './fault-helpers.ts';
import { intercept } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Ids the fake seeds with (fixtures/pets.json holds 180): above them, pets the run created. */
const seededIds = 180;

/** nginx's default 413 page (ngx_http_special_response.c), as a gateway in front sends it. */
const nginx413 =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Mutants for the checks the area mutants leave without one. */
export const unexercisedMutants: readonly Mutant[] = [
  mutant({
    name: 'unknown-status-500',
    fault: 'GET /pets with a status that is not a PetStatus answers 500',
    expect: 'listPets.unknownStatus',
    wrap: (fake) =>
      before('listPets', (call) => {
        const status = call.url.searchParams.get('status');
        return status !== null && !(petStatuses as readonly string[]).includes(status)
          ? serverError(fake)
          : call.request;
      })(fake),
  }),
  mutant({
    name: 'array-body-500',
    fault: 'POST /pets with a JSON array as body answers 500',
    expect: 'createPet.bodyRequired',
    wrap: (fake) =>
      before('createPet', (call) =>
        Array.isArray(safeParse(call.body)) ? serverError(fake) : call.forward(),
      )(fake),
  }),
  mutant({
    name: 'malformed-json-500',
    fault: 'POST /pets with a body that is not JSON answers 500',
    expect: 'createPet.malformedJson',
    wrap: (fake) =>
      before('createPet', (call) =>
        call.body !== '' && safeParse(call.body) === undefined ? serverError(fake) : call.forward(),
      )(fake),
  }),
  mutant({
    name: 'extra-fields-500',
    fault: 'POST /pets with a field NewPet does not define answers 500',
    expect: 'createPet.extraFields',
    wrap: (fake) =>
      before('createPet', (call) => {
        const body = safeParse(call.body);
        return body !== null &&
          typeof body === 'object' &&
          Object.keys(body).some(
            (field) => !newPetFieldNames.includes(field) && field !== 'contract-padding',
          )
          ? serverError(fake)
          : call.forward();
      })(fake),
  }),
  mutant({
    name: 'listing-renames-created-pets',
    fault: 'GET /pets shows the pets a client created under another name (GET by id is right)',
    expect: 'createPet.readBackUnchanged',
    wrap: afterListing((rows) =>
      rows.map((pet) =>
        Number(pet.id) > seededIds ? { ...pet, name: `${String(pet.name)} (renamed)` } : pet,
      ),
    ),
  }),
  mutant({
    name: 'listing-repeats-a-pet',
    fault: 'GET /pets with a limit repeats its last pet when fewer pets than the limit match',
    expect: 'model.createListGet',
    wrap: afterListing((rows, call) => {
      const limit = Number(call.url.searchParams.get('limit'));
      return rows.length > 0 && rows.length < limit ? [...rows, rows[rows.length - 1]] : rows;
    }),
  }),
  mutant({
    name: 'gateway-413-html',
    fault:
      "a gateway in front answers bodies above 1 KiB with nginx's HTML 413 page, without X-RateLimit-*",
    expect: 'errors.largeRequests',
    wrap: (fake) =>
      intercept(fake, async (call) =>
        call.body.length > 1024
          ? new Response(nginx413, { status: 413, headers: { 'Content-Type': 'text/html' } })
          : call.forward(),
      ),
  }),
  mutant({
    name: 'prism-sees-pet-without-category',
    fault: 'GET /pets drops categoryId from every pet, seen by Prism through --via-prism',
    expect: 'prism.exchangesValid',
    viaPrism: true,
    wrap: listedWithoutCategory,
  }),
];
