/**
 * The fleet's exchanges (pipeline/exchange.ts) in one capped Redis stream, so that the journal
 * and the recorders on any replica read what every replica answered. One script numbers an
 * exchange across the fleet and appends it, naming the replica that answered: `seq` follows the
 * order in which the replicas' appends reached Redis, and is the entry's stream id (`<seq>-0`),
 * so a reader asks for what came after the last seq it read. The stream is trimmed to its cap
 * in the same step (exactly, not `~`: the bound is the cap), so the fleet's memory is bounded as
 * one fake's journal is.
 *
 * Exchanges travel as lossless JSON (a categoryId past 2^53 in a body stays exact).
 */
import { parseJson, stringifyJson } from '../base/contract/lossless-json.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { assertRedisPrefix, exchangeKeys } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** One exchange of the fleet, numbered across it. */
interface FleetExchange {
  /** Its number in the fleet, from 1, in the order its append reached Redis. */
  readonly seq: number;
  /** The replica that answered it. */
  readonly replica: string;
  readonly exchange: Exchange;
}

/** The fleet's stream of exchanges. */
export interface FleetExchanges {
  /** Appends an exchange this replica answered; resolves with its seq once Redis holds it. */
  append(exchange: Exchange): Promise<number>;
  /** Up to `count` exchanges after the seq `after` (0: from the oldest kept), oldest first. */
  read(after: number, count: number): Promise<FleetExchange[]>;
}

/**
 * The stream of the fleet `prefix` on `redis` (connected, with the fleet's scripts), for the
 * replica named `replica`, keeping the newest `cap` exchanges.
 */
export function fleetExchanges(
  redis: ReplicaRedis,
  prefix: string,
  replica: string,
  cap: number,
): FleetExchanges {
  assertRedisPrefix(prefix);
  const keys = exchangeKeys(prefix);
  return {
    append: (exchange) => redis.appendExchange(keys, replica, cap, stringifyJson(exchange)),
    async read(after, count) {
      const entries = (await redis.xRange(keys[1], `(${after}-0`, '+', { COUNT: count })) ?? [];
      return entries.map(({ id, message }) => ({
        seq: Number(id.slice(0, id.indexOf('-'))),
        replica: String(message.replica),
        exchange: parseJson(String(message.exchange)) as Exchange,
      }));
    },
  };
}
