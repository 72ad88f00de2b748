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
import { type FleetView, fleetCheckLua, fleetRefusal } from './fleet-check-lua.ts';

// KEYS: next id, pets hash, all ids, the status's ids. ARGV: the new pet's JSON without its id
// (an object whose first field would follow `id`), the largest id, the cap on stored pets.
// KEYS[5]: the fleet's record, checked against ARGV[4] and ARGV[5] (fleet-check-lua.ts).
// Returns {'created', id, pet JSON} or {'full'} or {'exhausted'}, or the check's refusal.
const createPetLua = `${fleetCheckLua(5, 4, 5)}
local id = tonumber(redis.call('GET', KEYS[1])) or 1
if redis.call('LLEN', KEYS[3]) >= tonumber(ARGV[3]) then return {'full'} end
if id > tonumber(ARGV[2]) then return {'exhausted'} end
local idText = string.format('%.17g', id)
local rest = string.sub(ARGV[1], 2)
local pet = '{"id":' .. idText
if rest ~= '}' then pet = pet .. ',' end
pet = pet .. rest
redis.call('HSET', KEYS[2], idText, pet)
redis.call('RPUSH', KEYS[3], idText)
redis.call('RPUSH', KEYS[4], idText)
redis.call('SET', KEYS[1], string.format('%.17g', id + 1))
return {'created', idText, pet}
`;

// KEYS: next id, pets hash, the list's ids (all, or one status's), the fleet's record. ARGV: how
// many (0 for all), 'newest-first' or 'oldest-first', the epoch and copy version to check.
// Returns {next id, each pet's JSON text in order}: the replica joins them, not Redis, which
// every replica shares; or the check's refusal.
const readPetsLua = `${fleetCheckLua(4, 3, 4)}
local count = tonumber(ARGV[1])
local ids
if ARGV[2] == 'oldest-first' then
  ids = redis.call('LRANGE', KEYS[3], 0, count - 1)
else
  -- The last count ids, or with a count of 0 every id (Redis reads -0 as no integer).
  local first = 0
  if count > 0 then first = -count end
  local last = redis.call('LRANGE', KEYS[3], first, -1)
  ids = {}
  for index = #last, 1, -1 do ids[#ids + 1] = last[index] end
end
local next = redis.call('GET', KEYS[1]) or '1'
-- HMGET in slices: Lua's unpack takes a few thousand values at most, and a snapshot reads all.
local reply = {next}
for first = 1, #ids, 1000 do
  local slice = redis.call('HMGET', KEYS[2], unpack(ids, first, math.min(first + 999, #ids)))
  for _, pet in ipairs(slice) do reply[#reply + 1] = pet end
end
return reply
`;

// KEYS: pets hash, the fleet's record. ARGV: the id, the epoch and copy version to check.
// Returns {'found', pet JSON} or {'none'}, or the check's refusal.
const getPetLua = `${fleetCheckLua(2, 2, 3)}
local pet = redis.call('HGET', KEYS[1], ARGV[1])
if pet then return {'found', pet} end
return {'none'}
`;

/** What a create made: the pet's id and JSON text, or why there is none. */
export type CreateReply =
  | { readonly created: true; readonly id: number; readonly json: string }
  | { readonly created: false; readonly why: 'full' | 'exhausted' };

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
    const refused = fleetRefusal(reply);
    if (refused !== undefined) return refused;
    const [outcome, id, json] = reply as string[];
    if (outcome === 'created') return { created: true, id: Number(id), json: json as string };
    if (outcome === 'full' || outcome === 'exhausted') return { created: false, why: outcome };
    throw new Error(`petstore-fake: the create script answered ${JSON.stringify(reply)}`);
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
  transformReply(
    reply: unknown,
  ): { readonly petsJson: string; readonly nextId: number } | 'lost' | 'stale' {
    const refused = fleetRefusal(reply);
    if (refused !== undefined) return refused;
    const [nextId, ...pets] = reply as string[];
    return { petsJson: `[${pets.join(',')}]`, nextId: Number(nextId) };
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
    const refused = fleetRefusal(reply);
    if (refused !== undefined) return refused;
    const [outcome, json] = reply as string[];
    if (outcome === 'found') return json as string;
    if (outcome === 'none') return null;
    throw new Error(`petstore-fake: the get script answered ${JSON.stringify(reply)}`);
  },
});
