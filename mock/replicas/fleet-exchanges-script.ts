/**
 * An exchange numbered across the fleet and appended to its stream in one script
 * (fleet-exchanges.ts says what the stream is).
 */
import { type CommandParser, defineScript } from '@redis/client';

// KEYS: the seq counter, the stream. ARGV: the replica's name, the cap, the exchange's JSON.
// Returns the exchange's seq.
const appendLua = `
local seq = redis.call('INCR', KEYS[1])
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[2], seq .. '-0', 'replica', ARGV[1], 'exchange', ARGV[3])
return seq
`;

/** The append script: `client.appendExchange(keys, replica, cap, exchangeJson)`. */
export const appendExchangeScript = defineScript({
  SCRIPT: appendLua,
  NUMBER_OF_KEYS: 2,
  parseCommand(
    parser: CommandParser,
    keys: readonly [string, string],
    replica: string,
    cap: number,
    exchange: string,
  ) {
    for (const key of keys) parser.pushKey(key);
    parser.push(replica, String(cap), exchange);
  },
  transformReply: (reply: unknown) => Number(reply),
});
