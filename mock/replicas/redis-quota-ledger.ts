/**
 * The quota ledger of a fleet of replicas: every key's usage in Redis, each decision one atomic
 * script (quota-script.ts) in one round trip, so N concurrent requests of a key over any number
 * of replicas admit exactly the plan's limit. No replica keeps a copy: the very next request,
 * wherever it lands, sees the count.
 */
import type { QuotaDecision, QuotaLedger } from '../base/quota/quota.ts';
import { emptyUsage, type KeyUsage } from '../base/quota/rate-limit.ts';
import type { FleetView } from './fleet-check-lua.ts';
import { checkedReply } from './fleet-state.ts';
import { assertRedisPrefix, fleetKey, quotaKey, quotaKeyPattern } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** A QuotaLedger in Redis: each decision, and a clear, answers once Redis has. */
export interface RedisQuotaLedger extends QuotaLedger {
  /**
   * Decides one request of a key in one script (quota-script.ts), counting it if admitted;
   * rejects with FleetLostError or FleetStaleError, having written nothing, when the replica is
   * not current with its fleet.
   */
  decide(...args: Parameters<QuotaLedger['decide']>): Promise<QuotaDecision>;
  /** Removes every key's usage of the fleet (a control reset); resolves when Redis has. */
  clear(): Promise<void>;
  /** The key's usage as Redis holds it (an empty record for a key never counted). */
  read(keyId: string): Promise<KeyUsage>;
  /** Replaces the key's usage (a provider state, a restored session). */
  write(keyId: string, usage: KeyUsage): Promise<void>;
}

/** The hash fields of a usage record, as the quota script reads and writes them. */
function fieldsOf(usage: KeyUsage): Record<string, string> {
  return {
    minuteStart: String(usage.minute.start),
    minuteCount: String(usage.minute.count),
    dayStart: String(usage.day.start),
    dayCount: String(usage.day.count),
    violations: String(usage.violations),
    retryAt: String(usage.retryAt),
    bannedUntil: String(usage.bannedUntil),
  };
}

/**
 * The ledger over the Redis client `redis` (connected, with the fleet's scripts) for the fleet
 * whose keys start with `prefix`, as the replica that sees it as `fleet` (its epoch and copy).
 */
export function redisQuotaLedger(
  redis: ReplicaRedis,
  prefix: string,
  fleet: FleetView,
): RedisQuotaLedger {
  assertRedisPrefix(prefix);
  const record = fleetKey(prefix);
  return {
    decide: async (keyId, limits, now, policy) =>
      checkedReply(
        await redis.decideQuota([quotaKey(prefix, keyId), record], now, limits, policy, fleet),
        prefix,
      ),
    async read(keyId) {
      const hash = await redis.hGetAll(quotaKey(prefix, keyId));
      if (Object.keys(hash).length === 0) return emptyUsage();
      const n = (field: string) => Number(hash[field] ?? 0);
      return {
        minute: { start: n('minuteStart'), count: n('minuteCount') },
        day: { start: n('dayStart'), count: n('dayCount') },
        violations: n('violations'),
        retryAt: n('retryAt'),
        bannedUntil: n('bannedUntil'),
      };
    },
    async write(keyId, usage) {
      await redis.hSet(quotaKey(prefix, keyId), fieldsOf(usage));
    },
    clear: async () => {
      // SCAN walks one node; under Redis Cluster each primary is scanned the same way, and each
      // key unlinked on its own (one UNLINK takes keys of one slot only).
      for await (const keys of redis.scanIterator({ MATCH: quotaKeyPattern(prefix), COUNT: 500 }))
        if (keys.length > 0) await redis.unlink(keys);
    },
  };
}
