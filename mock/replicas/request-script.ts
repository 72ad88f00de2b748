/**
 * A request's one script: the check of the replica against its fleet, the quota's decision and,
 * when it admitted the request, the route's store call (a create, a get or a list), atomically
 * and in one round trip. A create is answered 201 only once this script stored the pet, and a
 * refused request never reaches the store; a stale copy writes nothing, so a request run again
 * on a fresh one is counted once.
 */
import { type CommandParser, defineScript } from '@redis/client';
import type { BanPolicy } from '../base/quota/ban.ts';
import type { Limits } from '../base/quota/plans.ts';
import type { QuotaDecision } from '../base/quota/quota.ts';
import { type FleetView, fleetCheckLua, fleetRefusal } from './fleet-check-lua.ts';
import { petStoreFunctions } from './pet-store-scripts.ts';
import { decideQuotaFunction, quotaDecisionOf } from './quota-script.ts';

// KEYS: the fleet's record, the key's usage hash, the store's next id, pets hash, all ids, and
// the ids of one status (the new pet's for a create, the listed one's for a list, else all ids
// again). ARGV: the epoch and copy version the check reads, now, perMinute, perDay, ban
// threshold, ban seconds, the store call ('none', 'create', 'get' or 'list') and its arguments:
// a create's pet JSON without its id, largest id and cap; a get's id; a list's count and order.
// Returns decideQuota's seven values, followed by the store call's reply when it was made.
const answerRequestLua = `${fleetCheckLua(1, 1, 2)}${decideQuotaFunction}${petStoreFunctions}
local decision = decideQuota(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]))
local call = ARGV[8]
if decision[1] ~= 'admitted' or call == 'none' then return decision end
local stored
if call == 'create' then
  stored = createPet(KEYS[3], KEYS[4], KEYS[5], KEYS[6], ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11]))
elseif call == 'get' then
  stored = getPet(KEYS[4], ARGV[9])
else
  stored = readPets(KEYS[3], KEYS[4], KEYS[6], tonumber(ARGV[9]), ARGV[10])
end
for index = 1, #stored do decision[#decision + 1] = stored[index] end
return decision
`;

/** The store's keys a request's script is given (redis-keys.ts's storeKeys, with the list it reads). */
export type RequestStoreKeys = readonly [
  nextId: string,
  pets: string,
  ids: string,
  statusIds: string,
];

/** The store call a request's script makes if the decision admits it, as script arguments. */
export type ScriptStoreCall =
  | readonly ['none']
  | readonly ['create', petJsonWithoutId: string, maxId: number, cap: number]
  | readonly ['get', id: number]
  | readonly ['list', count: number, order: 'newest-first' | 'oldest-first'];

/** What the script answered: the decision, and the store call's reply when it was made. */
export interface RequestReply {
  readonly decision: QuotaDecision;
  readonly stored: readonly string[] | undefined;
}

/**
 * The script as node-redis runs it:
 * `client.answerRequest([fleetKey, usageKey, ...storeKeys], now, limits, policy, call, fleet)`.
 */
export const answerRequestScript = defineScript({
  SCRIPT: answerRequestLua,
  NUMBER_OF_KEYS: 6,
  parseCommand(
    parser: CommandParser,
    keys: readonly [fleet: string, usage: string, ...RequestStoreKeys],
    now: number,
    limits: Limits,
    policy: BanPolicy,
    call: ScriptStoreCall,
    fleet: FleetView,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(
      fleet.epoch,
      fleet.version(),
      String(now),
      String(limits.perMinute),
      String(limits.perDay),
      String(policy.threshold),
      String(policy.durationSeconds),
      ...call.map(String),
    );
  },
  transformReply(reply: unknown): RequestReply | 'lost' | 'stale' {
    const refused = fleetRefusal(reply);
    if (refused !== undefined) return refused;
    const values = reply as string[];
    const decision = quotaDecisionOf(values);
    return { decision, stored: values.length > 7 ? values.slice(7) : undefined };
  },
});
