/**
 * The fleet's record founded or read in one script (fleet.ts says what the record is), so that
 * two replicas starting at once found one fleet, never two.
 */
import { defineScript } from '@redis/client';

// KEYS[1]: the fleet's record. ARGV: format, epoch, settings JSON, token hash (empty: no token),
// how long (ms) a founder may take to seed the fleet. Founds the record when there is none, marked
// `founding` (Redis's time) until its founder seeded it; answers {'founding'} while it is, and
// founds it anew when its founder took longer than that (it died before it seeded the fleet).
// Else answers what the record holds.
const joinFleetLua = `
local function found()
  local time = redis.call('TIME')
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'format', ARGV[1], 'epoch', ARGV[2], 'settings', ARGV[3], 'token', ARGV[4],
    'founding', time[1] * 1000 + math.floor(time[2] / 1000))
  return {'founded', ARGV[2], ARGV[3], ARGV[4]}
end
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return found() end
if kind ~= 'hash' then return {'format', 'a ' .. kind} end
local record = redis.call('HMGET', KEYS[1], 'format', 'epoch', 'settings', 'token', 'founding')
if record[1] ~= ARGV[1] then return {'format', record[1] or 'no format'} end
if record[5] then
  local time = redis.call('TIME')
  if time[1] * 1000 + math.floor(time[2] / 1000) - tonumber(record[5]) < tonumber(ARGV[5]) then
    return {'founding'}
  end
  return found()
end
return {'joined', record[2], record[3], record[4]}
`;

// KEYS[1]: the fleet's record. ARGV: the founder's epoch. Opens the fleet its founder seeded to
// the other replicas; a fleet founded anew since (another epoch) is left as it is.
const finishFoundingLua = `
if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] then redis.call('HDEL', KEYS[1], 'founding') end
return 'OK'
`;

/** What the join script answered. */
export type JoinReply =
  | {
      readonly outcome: 'founded' | 'joined';
      readonly epoch: string;
      readonly settings: string;
      readonly token: string;
    }
  | { readonly outcome: 'format'; readonly found: string }
  | { readonly outcome: 'founding' };

/**
 * The join script:
 * `client.joinFleet(fleetKey, format, epoch, settingsJson, tokenHash, foundingTimeoutMs)`.
 */
export const joinFleetScript = defineScript({
  SCRIPT: joinFleetLua,
  NUMBER_OF_KEYS: 1,
  parseCommand(
    parser,
    key: string,
    format: string,
    epoch: string,
    settings: string,
    token: string,
    foundingTimeoutMs: number,
  ) {
    parser.pushKey(key);
    parser.push(format, epoch, settings, token, String(foundingTimeoutMs));
  },
  transformReply(reply: unknown): JoinReply {
    const [outcome, epoch, settings, token] = reply as string[];
    if (outcome === 'format') return { outcome, found: epoch ?? '' };
    if (outcome === 'founding') return { outcome };
    if (outcome === 'founded' || outcome === 'joined')
      return { outcome, epoch: epoch ?? '', settings: settings ?? '', token: token ?? '' };
    throw new Error(`petstore-fake: the join script answered ${JSON.stringify(reply)}`);
  },
});

/** The script that ends a founding: `client.finishFounding(fleetKey, epoch)`. */
export const finishFoundingScript = defineScript({
  SCRIPT: finishFoundingLua,
  NUMBER_OF_KEYS: 1,
  parseCommand(parser, key: string, epoch: string) {
    parser.pushKey(key);
    parser.push(epoch);
  },
  transformReply(): void {},
});
