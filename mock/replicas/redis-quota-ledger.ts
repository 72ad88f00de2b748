/**
 * The quota ledger of a fleet of replicas: every key's usage in Redis, each decision one atomic
 * script (quota-script.ts) in one round trip, so N concurrent requests of a key over any number
 * of replicas admit exactly the plan's limit. No replica keeps a copy: the very next request,
 * wherever it lands, sees the count.
 */
import type { QuotaDecision, QuotaLedger } from '../base/quota/quota.ts';
import { assertRedisPrefix, quotaKey, quotaKeyPattern } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** A QuotaLedger in Redis: each decision, and a clear, answers once Redis has. */
export interface RedisQuotaLedger extends QuotaLedger {
  /** Decides one request of a key in one script (quota-script.ts), counting it if admitted. */
  decide(...args: Parameters<QuotaLedger['decide']>): Promise<QuotaDecision>;
  /** Removes every key's usage of the fleet (a control reset); resolves when Redis has. */
  clear(): Promise<void>;
}

/**
 * The ledger over the Redis client `redis` (connected, with the fleet's scripts) for the fleet
 * whose keys start with `prefix`.
 */
export function redisQuotaLedger(redis: ReplicaRedis, prefix: string): RedisQuotaLedger {
  assertRedisPrefix(prefix);
  return {
    decide: (keyId, limits, now, policy) =>
      redis.decideQuota(quotaKey(prefix, keyId), now, limits, policy),
    clear: async () => {
      // SCAN walks one node; under Redis Cluster each primary is scanned the same way, and each
      // key unlinked on its own (one UNLINK takes keys of one slot only).
      for await (const keys of redis.scanIterator({ MATCH: quotaKeyPattern(prefix), COUNT: 500 }))
        if (keys.length > 0) await redis.unlink(keys);
    },
  };
}
