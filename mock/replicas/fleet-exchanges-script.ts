/**
 * An exchange numbered across the fleet and appended to its stream in one script
 * (fleet-exchanges.ts says what the stream is).
 */
import { type CommandParser, defineScript } from '@redis/client';

// KEYS: the seq counter, the stream, the fleet's record. ARGV: the replica's name, the cap, the
// exchange's JSON, the replica's epoch. Returns the exchange's seq, or 0 having written nothing
// when the fleet is gone: a key written then would stand in the way of founding it again.
const appendLua = `
if redis.call('HGET', KEYS[3], 'epoch') ~= ARGV[4] then return 0 end
local seq = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[2], seq .. '-0', 'replica', ARGV[1], 'exchange', ARGV[3])
return seq
`;

/** The append script: `client.appendExchange(keys, replica, cap, exchangeJson, epoch)`. */
export const appendExchangeScript = defineScript({
  SCRIPT: appendLua,
  NUMBER_OF_KEYS: 3,
  parseCommand(
    parser: CommandParser,
    keys: readonly [string, string, string],
    replica: string,
    cap: number,
    exchange: string,
    epoch: string,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(replica, String(cap), exchange, epoch);
  },
  transformReply: (reply: unknown) => Number(reply),
});
