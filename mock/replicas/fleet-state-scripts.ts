/**
 * The fleet's shared control state (fleet-state.ts) saved and checked in one script each, on
 * the fleet's record: a save bumps the record's version in the same step as it writes, and a
 * check answers the state only when the version moved, so the common check is a few bytes.
 * Both first compare the record's epoch with the replica's: a replica of a fleet whose Redis
 * lost its data (or that a new fleet replaced) is told so, and never writes into another fleet.
 */
import { type CommandParser, defineScript } from '@redis/client';

// KEYS[1]: the fleet's record. ARGV: epoch, the version the change was made on, clock JSON,
// keys JSON, policies JSON. Returns {'saved', version}, {'conflict'} when another replica saved
// since, or {'lost'}.
const saveLua = `
local record = redis.call('HMGET', KEYS[1], 'epoch', 'version')
if record[1] ~= ARGV[1] then return {'lost'} end
if (record[2] or '0') ~= ARGV[2] then return {'conflict'} end
redis.call('HSET', KEYS[1], 'clock', ARGV[3], 'keys', ARGV[4], 'policies', ARGV[5])
return {'saved', tostring(redis.call('HINCRBY', KEYS[1], 'version', 1))}
`;

// KEYS[1]: the fleet's record. ARGV: epoch, the version the replica holds. Returns {'lost'},
// or {'same', seconds, microseconds} or {'changed', seconds, microseconds, version, clock JSON,
// keys JSON, policies JSON}: Redis's clock rides along, a reading the time source may take as a measurement
// (fleet-clock.ts takes its own, with TIME).
const checkLua = `
local record = redis.call('HMGET', KEYS[1], 'epoch', 'version', 'clock', 'keys', 'policies')
if record[1] ~= ARGV[1] then return {'lost'} end
local time = redis.call('TIME')
local version = record[2] or '0'
if version == ARGV[2] then return {'same', time[1], time[2]} end
return {'changed', time[1], time[2], version, record[3] or '', record[4] or '', record[5] or ''}
`;

/** What a save answered: the fleet's new version, or why there is none. */
export type SaveReply =
  | { readonly outcome: 'saved'; readonly version: string }
  | { readonly outcome: 'conflict' | 'lost' };

/** What a check answered, with Redis's clock in epoch ms. */
export type CheckReply =
  | { readonly outcome: 'lost' }
  | { readonly outcome: 'same'; readonly redisMs: number }
  | {
      readonly outcome: 'changed';
      readonly redisMs: number;
      readonly version: string;
      readonly clockJson: string;
      readonly keysJson: string;
      readonly policiesJson: string;
    };

/**
 * The save script:
 * `client.saveFleetState(recordKey, epoch, madeOn, clockJson, keysJson, policiesJson)`.
 */
export const saveFleetStateScript = defineScript({
  SCRIPT: saveLua,
  NUMBER_OF_KEYS: 1,
  parseCommand(
    parser: CommandParser,
    key: string,
    epoch: string,
    madeOn: string,
    clock: string,
    keys: string,
    policies: string,
  ) {
    parser.pushKey(key);
    parser.push(epoch, madeOn, clock, keys, policies);
  },
  transformReply(reply: unknown): SaveReply {
    const [outcome, version] = reply as string[];
    if (outcome === 'saved') return { outcome, version: version ?? '' };
    if (outcome === 'conflict' || outcome === 'lost') return { outcome };
    throw new Error(`petstore-fake: the fleet's save script answered ${JSON.stringify(reply)}`);
  },
});

/** The check script: `client.checkFleetState(recordKey, epoch, knownVersion)`. */
export const checkFleetStateScript = defineScript({
  SCRIPT: checkLua,
  NUMBER_OF_KEYS: 1,
  IS_READ_ONLY: true,
  parseCommand(parser: CommandParser, key: string, epoch: string, version: string) {
    parser.pushKey(key);
    parser.push(epoch, version);
  },
  transformReply(reply: unknown): CheckReply {
    const [outcome, seconds, microseconds, version, clockJson, keysJson, policiesJson] =
      reply as string[];
    if (outcome === 'lost') return { outcome };
    const redisMs = Number(seconds) * 1000 + Number(microseconds) / 1000;
    if (outcome === 'same') return { outcome, redisMs };
    if (outcome === 'changed')
      return {
        outcome,
        redisMs,
        version: version ?? '',
        clockJson: clockJson ?? '',
        keysJson: keysJson ?? '',
        policiesJson: policiesJson ?? '',
      };
    throw new Error(`petstore-fake: the fleet's check script answered ${JSON.stringify(reply)}`);
  },
});
