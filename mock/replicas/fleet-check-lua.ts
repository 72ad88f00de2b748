/**
 * The check every script a request runs makes first: the replica against its fleet's record
 * (fleet-state.ts). A script whose fleet Redis lost (a flush, a restart without persistence) or
 * whose replica holds an older copy of the clock and keys answers `{'lost'}` or `{'stale'}`
 * having written nothing, so no answer is made on a store that is gone or a stale plan or clock,
 * and no round trip is spent checking first. One text, placed at the top of each script.
 */

/** The check's Lua, reading the record at KEYS[record] against ARGV[epoch] and ARGV[version]. */
export function fleetCheckLua(record: number, epoch: number, version: number): string {
  return `
local fleet = redis.call('HMGET', KEYS[${record}], 'epoch', 'version')
if fleet[1] ~= ARGV[${epoch}] then return {'lost'} end
if (fleet[2] or '0') ~= ARGV[${version}] then return {'stale'} end
`;
}

/** Whether a script's reply is the check's refusal. */
export function fleetRefusal(reply: unknown): 'lost' | 'stale' | undefined {
  const first = Array.isArray(reply) ? reply[0] : undefined;
  return first === 'lost' || first === 'stale' ? first : undefined;
}

/** The replica's view of its fleet that every script is checked against. */
export interface FleetView {
  readonly epoch: string;
  /** The version of the replica's copy of the fleet's control state (fleet-copy.ts). */
  version(): string;
}
