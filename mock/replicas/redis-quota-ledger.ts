/**
 * The quota ledger of a fleet of replicas: every key's usage in Redis, each decision one atomic
 * script (request-script.ts) in one round trip, so N concurrent requests of a key over any number
 * of replicas admit exactly the plan's limit, with the route's store call in the same script when
 * the request carries one. No replica keeps a copy: the very next request, wherever it lands,
 * sees the count.
 */
import type { BanPolicy } from '../base/quota/ban.ts';
import type { Limits } from '../base/quota/plans.ts';
import type { QuotaDecision, QuotaLedger } from '../base/quota/quota.ts';
import { emptyUsage, type KeyUsage } from '../base/quota/rate-limit.ts';
import type { SharedQuota, StoreAnswer, StoreCall } from '../pipeline/fake-state.ts';
import { maxPetId } from '../pipeline/persistence.ts';
import type { FleetView } from './fleet-check-lua.ts';
import { checkedReply } from './fleet-state.ts';
import { createReplyOf, getReplyOf, readReplyOf } from './pet-store-scripts.ts';
import { assertRedisPrefix, fleetKey, quotaKey, quotaKeyPattern, storeKeys } from './redis-keys.ts';
import { createdPet, frozenPet, frozenPets, petJsonWithoutId } from './redis-pet-store.ts';
import type { ReplicaRedis } from './replica-redis.ts';
import type { RequestStoreKeys, ScriptStoreCall } from './request-script.ts';

/** A QuotaLedger in Redis: each decision, and a clear, answers once Redis has. */
export interface RedisQuotaLedger extends QuotaLedger {
  /**
   * Decides one request of a key in one script (request-script.ts), counting it if admitted;
   * rejects with FleetLostError or FleetStaleError, having written nothing, when the replica is
   * not current with its fleet.
   */
  decide(...args: Parameters<QuotaLedger['decide']>): Promise<QuotaDecision>;
  /** Decides as `decide` does and, if that admitted the request, makes `call` in the same script. */
  decideWith: SharedQuota['decideWith'];
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
  const store = storeKeys(prefix);
  /** The script's store keys and arguments for `call`, or none for a call that reads nothing. */
  const scriptCall = (
    call: StoreCall,
  ): readonly [RequestStoreKeys, ScriptStoreCall] | 'answered' => {
    const { nextId, pets, ids, statusIds } = store;
    if (call.call === 'create')
      return [
        [nextId, pets, ids, statusIds(call.pet.status)],
        ['create', petJsonWithoutId(call.pet), maxPetId, call.maxPets ?? Number.MAX_SAFE_INTEGER],
      ];
    // Answered without the store, as redis-pet-store.ts's get and list do.
    if (call.call === 'get')
      return Number.isSafeInteger(call.id)
        ? [
            [nextId, pets, ids, ids],
            ['get', call.id],
          ]
        : 'answered';
    if (call.limit < 1) return 'answered';
    const listed = call.status === undefined ? ids : statusIds(call.status);
    return [
      [nextId, pets, ids, listed],
      ['list', call.limit, call.order ?? 'newest-first'],
    ];
  };
  const answered = (call: StoreCall): StoreAnswer =>
    call.call === 'list' ? frozenPets('[]') : undefined;
  const storedAnswer = (call: StoreCall, reply: readonly string[]): StoreAnswer => {
    if (call.call === 'create') return createdPet(createReplyOf(reply));
    if (call.call === 'get') return frozenPet(getReplyOf(reply));
    return frozenPets(readReplyOf(reply).petsJson);
  };
  const run = async (
    keyId: string,
    limits: Limits,
    now: number,
    policy: BanPolicy,
    keys: RequestStoreKeys,
    call: ScriptStoreCall,
  ) =>
    checkedReply(
      await redis.answerRequest(
        [record, quotaKey(prefix, keyId), ...keys],
        now,
        limits,
        policy,
        call,
        fleet,
      ),
      prefix,
    );
  const noStore: RequestStoreKeys = [store.nextId, store.pets, store.ids, store.ids];
  return {
    decide: async (keyId, limits, now, policy) =>
      (await run(keyId, limits, now, policy, noStore, ['none'])).decision,
    async decideWith(keyId, limits, now, policy, call) {
      const made = scriptCall(call);
      if (made === 'answered') {
        const decision = (await run(keyId, limits, now, policy, noStore, ['none'])).decision;
        return { decision, stored: answered(call) };
      }
      const { decision, stored } = await run(keyId, limits, now, policy, ...made);
      return { decision, stored: stored === undefined ? undefined : storedAnswer(call, stored) };
    },
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
