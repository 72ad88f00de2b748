/**
 * The pet store's atomic steps as Lua scripts: a create takes the next id, checks the store's cap
 * and stores the pet in one step, so ids are unique and increasing across replicas and a cap is
 * never passed by concurrent creates; a read takes a page of pets (or all of them, with the id
 * counter, for a snapshot) in one round trip. The pets are immutable once stored, so a pet is
 * kept as its JSON text, written once by the replica that created it.
 *
 * Ids are doubles in Lua as in JavaScript, and every id up to 2^53 - 1 (maxPetId) is exact in
 * both; an id goes out as `%.17g`, which writes an integer below 10^17 as its plain digits.
 */
import { type CommandParser, defineScript } from '@redis/client';
import { petStatuses } from '../base/contract/schemas.ts';
import type { Pet, PetStatus } from '../base/contract/types.ts';
import { type FleetView, fleetCheckLua, fleetRefusal } from './fleet-check-lua.ts';

/**
 * The store's steps as Lua functions, which every script that takes one defines:
 * - `createPet(nextIdKey, petsKey, idsKey, statusIdsKey, rest, maxId, cap)` stores `rest` (the
 *   new pet's JSON without its id: an object whose first field would follow `id`) with the next
 *   id, unless `cap` pets are stored or the id would pass maxId; returns {'created', id, pet
 *   JSON} or {'full'} or {'exhausted'}.
 * - `readPets(nextIdKey, petsKey, listKey, count, order)` reads `count` pets (0 for all) of the
 *   list at listKey in 'newest-first' or 'oldest-first' order; returns {next id, each pet's JSON
 *   text in order}: the replica joins them, not Redis, which every replica shares.
 * - `getPet(petsKey, id)` returns {'found', pet JSON} or {'none'}.
 */
export const petStoreFunctions = `
local function createPet(nextIdKey, petsKey, idsKey, statusIdsKey, rest, maxId, cap)
  local id = tonumber(redis.call('GET', nextIdKey)) or 1
  if redis.call('LLEN', idsKey) >= cap then return {'full'} end
  if id > maxId then return {'exhausted'} end
  local idText = string.format('%.17g', id)
  local pet = '{"id":' .. idText
  rest = string.sub(rest, 2)
  if rest ~= '}' then pet = pet .. ',' end
  pet = pet .. rest
  redis.call('HSET', petsKey, idText, pet)
  redis.call('RPUSH', idsKey, idText)
  redis.call('RPUSH', statusIdsKey, idText)
  redis.call('SET', nextIdKey, string.format('%.17g', id + 1))
  return {'created', idText, pet}
end

local function readPets(nextIdKey, petsKey, listKey, count, order)
  local ids
  if order == 'oldest-first' then
    ids = redis.call('LRANGE', listKey, 0, count - 1)
  else
    -- The last count ids, or with a count of 0 every id (Redis reads -0 as no integer).
    local first = 0
    if count > 0 then first = -count end
    local last = redis.call('LRANGE', listKey, first, -1)
    ids = {}
    for index = #last, 1, -1 do ids[#ids + 1] = last[index] end
  end
  -- HMGET in slices: Lua's unpack takes a few thousand values at most, and a snapshot reads all.
  local reply = {redis.call('GET', nextIdKey) or '1'}
  for first = 1, #ids, 1000 do
    local slice = redis.call('HMGET', petsKey, unpack(ids, first, math.min(first + 999, #ids)))
    for _, pet in ipairs(slice) do reply[#reply + 1] = pet end
  end
  return reply
end

local function getPet(petsKey, id)
  local pet = redis.call('HGET', petsKey, id)
  if pet then return {'found', pet} end
  return {'none'}
end
`;

// KEYS: next id, pets hash, all ids, the status's ids, the fleet's record. ARGV: the new pet's
// JSON without its id, the largest id, the cap on stored pets, then the epoch and copy version
// the check reads (fleet-check-lua.ts).
const createPetLua = `${fleetCheckLua(5, 4, 5)}${petStoreFunctions}
return createPet(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
`;

// KEYS: next id, pets hash, the list's ids (all, or one status's), the fleet's record. ARGV: how
// many (0 for all), the order, the epoch and copy version to check.
const readPetsLua = `${fleetCheckLua(4, 3, 4)}${petStoreFunctions}
return readPets(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), ARGV[2])
`;

// KEYS: pets hash, the fleet's record. ARGV: the id, the epoch and copy version to check.
const getPetLua = `${fleetCheckLua(2, 2, 3)}${petStoreFunctions}
return getPet(KEYS[1], ARGV[1])
`;

// KEYS: next id, pets hash, all ids, each status's ids (in petStatuses' order), the fleet's
// record. ARGV: the epoch, the next id, then each pet's id, its status's place in petStatuses (0
// for none) and its JSON text, in id order. Only the epoch is checked, not the copy's version: a
// restore is part of a control call, which saves its change on the fleet's version after it, but
// a replica of a fleet founded anew since (a founder that was overtaken) must write nothing.
const replacePetsLua = `
local record = KEYS[#KEYS]
if redis.call('HGET', record, 'epoch') ~= ARGV[1] then return {'lost'} end
for index = 1, #KEYS - 1 do redis.call('DEL', KEYS[index]) end
-- In slices: Lua's unpack takes a few thousand values at most.
for first = 3, #ARGV, 3000 do
  local fields, ids, byStatus = {}, {}, {}
  for at = first, math.min(first + 2999, #ARGV), 3 do
    fields[#fields + 1] = ARGV[at]
    fields[#fields + 1] = ARGV[at + 2]
    ids[#ids + 1] = ARGV[at]
    local status = tonumber(ARGV[at + 1])
    if status > 0 then
      byStatus[status] = byStatus[status] or {}
      table.insert(byStatus[status], ARGV[at])
    end
  end
  redis.call('HSET', KEYS[2], unpack(fields))
  redis.call('RPUSH', KEYS[3], unpack(ids))
  for status, statusIds in pairs(byStatus) do redis.call('RPUSH', KEYS[3 + status], unpack(statusIds)) end
end
redis.call('SET', KEYS[1], ARGV[2])
return {'restored'}
`;

/** A pet as a restore writes it: its id, its status if any, and its JSON text. */
export interface RestoredPet {
  readonly id: Pet['id'];
  readonly status: PetStatus | undefined;
  readonly json: string;
}

/** What a create made: the pet's id and JSON text, or why there is none. */
export type CreateReply =
  | { readonly created: true; readonly id: number; readonly json: string }
  | { readonly created: false; readonly why: 'full' | 'exhausted' };

/** createPet's reply. */
export function createReplyOf(reply: readonly string[]): CreateReply {
  const [outcome, id, json] = reply;
  if (outcome === 'created') return { created: true, id: Number(id), json: json as string };
  if (outcome === 'full' || outcome === 'exhausted') return { created: false, why: outcome };
  throw new Error(`petstore-fake: createPet answered ${JSON.stringify(reply)}`);
}

/** What a read took: the pets' JSON array, as text, and the id counter. */
export interface ReadReply {
  readonly petsJson: string;
  readonly nextId: number;
}

/** readPets's reply. */
export function readReplyOf(reply: readonly string[]): ReadReply {
  const [nextId, ...pets] = reply;
  return { petsJson: `[${pets.join(',')}]`, nextId: Number(nextId) };
}

/** getPet's reply: the pet's JSON text, or `null`. */
export function getReplyOf(reply: readonly string[]): string | null {
  const [outcome, json] = reply;
  if (outcome === 'found') return json as string;
  if (outcome === 'none') return null;
  throw new Error(`petstore-fake: getPet answered ${JSON.stringify(reply)}`);
}

/** The create script: `client.createPet(keys, petJsonWithoutId, maxPetId, cap, fleet)`. */
export const createPetScript = defineScript({
  SCRIPT: createPetLua,
  NUMBER_OF_KEYS: 5,
  parseCommand(
    parser: CommandParser,
    keys: readonly [string, string, string, string, string],
    petJsonWithoutId: string,
    maxId: number,
    cap: number,
    fleet: FleetView,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(petJsonWithoutId, String(maxId), String(cap), fleet.epoch, fleet.version());
  },
  transformReply(reply: unknown): CreateReply | 'lost' | 'stale' {
    return fleetRefusal(reply) ?? createReplyOf(reply as string[]);
  },
});

/**
 * The read script: `client.readPets(keys, count, order, fleet)`, a count of 0 reading every
 * pet.
 */
export const readPetsScript = defineScript({
  SCRIPT: readPetsLua,
  NUMBER_OF_KEYS: 4,
  IS_READ_ONLY: true,
  parseCommand(
    parser: CommandParser,
    keys: readonly [string, string, string, string],
    count: number,
    order: 'newest-first' | 'oldest-first',
    fleet: FleetView,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(String(count), order, fleet.epoch, fleet.version());
  },
  transformReply(reply: unknown): ReadReply | 'lost' | 'stale' {
    return fleetRefusal(reply) ?? readReplyOf(reply as string[]);
  },
});

/** The get script: `client.getPet(keys, id, fleet)`; the pet's JSON text, or `null`. */
export const getPetScript = defineScript({
  SCRIPT: getPetLua,
  NUMBER_OF_KEYS: 2,
  IS_READ_ONLY: true,
  parseCommand(
    parser: CommandParser,
    keys: readonly [string, string],
    id: number,
    fleet: FleetView,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(String(id), fleet.epoch, fleet.version());
  },
  transformReply(reply: unknown): string | null | 'lost' | 'stale' {
    return fleetRefusal(reply) ?? getReplyOf(reply as string[]);
  },
});

/**
 * The restore script: `client.replacePets(keys, pets, nextId, fleet)` replaces every pet, the
 * lists of ids and the id counter at once, so no replica reads half of it; `pets` in id order.
 */
export const replacePetsScript = defineScript({
  SCRIPT: replacePetsLua,
  NUMBER_OF_KEYS: 4 + petStatuses.length,
  parseCommand(
    parser: CommandParser,
    keys: readonly string[],
    pets: readonly RestoredPet[],
    nextId: number,
    fleet: FleetView,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(fleet.epoch, String(nextId));
    for (const pet of pets)
      parser.push(
        String(pet.id),
        String(pet.status === undefined ? 0 : petStatuses.indexOf(pet.status) + 1),
        pet.json,
      );
  },
  transformReply(reply: unknown): 'restored' | 'lost' {
    const [outcome] = reply as string[];
    if (outcome === 'restored' || outcome === 'lost') return outcome;
    throw new Error(`petstore-fake: replacePets answered ${JSON.stringify(reply)}`);
  },
});
