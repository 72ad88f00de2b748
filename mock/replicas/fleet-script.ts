/**
 * The fleet's record founded or read in one script (fleet.ts says what the record is), so that
 * two replicas starting at once found one fleet, never two.
 */
import { defineScript } from '@redis/client';

// KEYS[1]: the fleet's record. ARGV: format, epoch, settings JSON, token hash (empty: no token).
// Founds the record when there is none; else answers what it holds.
const joinFleetLua = `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then
  redis.call('HSET', KEYS[1], 'format', ARGV[1], 'epoch', ARGV[2], 'settings', ARGV[3], 'token', ARGV[4])
  return {'founded', ARGV[2], ARGV[3], ARGV[4]}
end
if kind ~= 'hash' then return {'format', 'a ' .. kind} end
local record = redis.call('HMGET', KEYS[1], 'format', 'epoch', 'settings', 'token')
if record[1] ~= ARGV[1] then return {'format', record[1] or 'no format'} end
return {'joined', record[2], record[3], record[4]}
`;

/** What the join script answered. */
export type JoinReply =
  | {
      readonly outcome: 'founded' | 'joined';
      readonly epoch: string;
      readonly settings: string;
      readonly token: string;
    }
  | { readonly outcome: 'format'; readonly found: string };

/** The join script: `client.joinFleet(fleetKey, format, epoch, settingsJson, tokenHash)`. */
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
  ) {
    parser.pushKey(key);
    parser.push(format, epoch, settings, token);
  },
  transformReply(reply: unknown): JoinReply {
    const [outcome, epoch, settings, token] = reply as string[];
    if (outcome === 'format') return { outcome, found: epoch ?? '' };
    if (outcome === 'founded' || outcome === 'joined')
      return { outcome, epoch: epoch ?? '', settings: settings ?? '', token: token ?? '' };
    throw new Error(`petstore-fake: the join script answered ${JSON.stringify(reply)}`);
  },
});
