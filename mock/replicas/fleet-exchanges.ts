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
import type { ExchangeMark } from '../pipeline/shared-state.ts';
import { FleetLostError } from './fleet-state.ts';
import { assertRedisPrefix, exchangeKeys, fleetKey } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** One exchange of the fleet, numbered across it, or the mark of a reset. */
interface FleetExchange {
  /** Its number in the fleet, from 1, in the order its append reached Redis. */
  readonly seq: number;
  /** The replica that answered it (or was reset). */
  readonly replica: string;
  /** The exchange, or a mark (pipeline/shared-state.ts). */
  readonly exchange: Exchange | ExchangeMark;
}

/** The fleet's stream of exchanges. */
export interface FleetExchanges {
  /** Appends an exchange this replica answered; resolves with its seq once Redis holds it. */
  append(exchange: Exchange | ExchangeMark): Promise<number>;
  /** Up to `count` exchanges after the seq `after` (0: from the oldest kept), oldest first. */
  read(after: number, count: number): Promise<FleetExchange[]>;
}

/**
 * The stream of the fleet `prefix` on `redis` (connected, with the fleet's scripts), for the
 * replica named `replica` of the fleet at `fleet`'s epoch, keeping the newest `cap` exchanges.
 * An append to a fleet that is gone writes nothing and rejects with FleetLostError.
 */
export function fleetExchanges(
  redis: ReplicaRedis,
  prefix: string,
  fleet: { readonly epoch: string },
  replica: string,
  cap: number,
): FleetExchanges {
  assertRedisPrefix(prefix);
  const [seqKey, streamKey] = exchangeKeys(prefix);
  const keys = [seqKey, streamKey, fleetKey(prefix)] as const;
  return {
    async append(exchange) {
      const seq = await redis.appendExchange(
        keys,
        replica,
        cap,
        stringifyJson(exchange),
        fleet.epoch,
      );
      if (seq === 0) throw new FleetLostError(prefix);
      return seq;
    },
    async read(after, count) {
      const entries = (await redis.xRange(streamKey, `(${after}-0`, '+', { COUNT: count })) ?? [];
      return entries.map(({ id, message }) => ({
        seq: Number(id.slice(0, id.indexOf('-'))),
        replica: String(message.replica),
        exchange: parseJson(String(message.exchange)) as Exchange | ExchangeMark,
      }));
    },
  };
}
