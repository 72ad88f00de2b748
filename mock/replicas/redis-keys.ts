/**
 * Where a fleet of replicas keeps its state in Redis. Every key of one fleet starts with the hash
 * tag `{<prefix>}` (several fakes may share one Redis under different prefixes), so all of them
 * sit in one hash slot: a create's decision (the key's usage and the store together) and every
 * check of the fleet's record are one script, and a script may read one slot only. Under a later
 * Redis Cluster a fleet lives on one shard and the tags need no change; fleets spread over shards.
 *
 *   {<prefix>}:fleet              a hash: the fleet's record (fleet.ts): format, epoch, the
 *                                 configuration that makes replicas one fake, the control
 *                                 token's hash.
 *   {<prefix>}:quota:<key id>     a hash: the key's minute and day windows, violations, retryAt,
 *                                 bannedUntil (KeyUsage's fields, flattened); one per key id, and
 *                                 key ids are those of the keys file and the control surface, so
 *                                 the keys are bounded.
 *   {<prefix>}:store:next-id      the id the next create takes.
 *   {<prefix>}:store:pets         a hash: each pet's JSON text by id.
 *   {<prefix>}:store:ids          a list: every id, in increasing order (a restore writes them
 *                                 sorted, and a create appends the next id, past every stored
 *                                 one), read from either end for either order.
 *   {<prefix>}:store:ids:<status> the same, for the pets of one status.
 *   {<prefix>}:exchanges          a stream: the fleet's newest exchanges, capped (fleet-exchanges.ts).
 *   {<prefix>}:exchanges:seq      the seq the last exchange took.
 */
import { ConfigError } from '../base/config-error.ts';
import type { PetStatus } from '../base/contract/types.ts';
import { keyIdPattern } from '../base/quota/plans.ts';

/** A fleet's prefix: no `{` or `}` (it is the keys' hash tag) and no glob characters (a reset scans for its keys). */
const prefixPattern = /^[A-Za-z0-9._:-]{1,64}$/;

/** Throws a ConfigError unless `prefix` can start a fleet's keys. */
export function assertRedisPrefix(prefix: string): void {
  if (!prefixPattern.test(prefix))
    throw new ConfigError(
      'redis prefix',
      `must be 1 to 64 characters of A-Z a-z 0-9 . _ : -, got ${JSON.stringify(prefix)}`,
    );
}

/** The fleet's record (fleet.ts). */
export function fleetKey(prefix: string): string {
  return `{${prefix}}:fleet`;
}

/** The usage hash of the key `keyId`. */
export function quotaKey(prefix: string, keyId: string): string {
  // Key ids are plain (keyIdPattern): never a glob character a reset's scan would read.
  if (!keyIdPattern.test(keyId)) throw new Error(`petstore-fake: key id ${JSON.stringify(keyId)}`);
  return `{${prefix}}:quota:${keyId}`;
}

/** The SCAN pattern of every usage hash of the fleet `prefix`. */
export function quotaKeyPattern(prefix: string): string {
  return `{${prefix}}:quota:*`;
}

/** The SCAN pattern of every key of the fleet `prefix`. */
export function fleetKeyPattern(prefix: string): string {
  return `{${prefix}}:*`;
}

/** The pet store's keys of the fleet `prefix`. */
export function storeKeys(prefix: string) {
  const store = `{${prefix}}:store`;
  return {
    nextId: `${store}:next-id`,
    pets: `${store}:pets`,
    ids: `${store}:ids`,
    statusIds: (status: PetStatus) => `${store}:ids:${status}`,
  };
}

/** The fleet's stream of exchanges and its seq counter. */
export function exchangeKeys(prefix: string): readonly [seq: string, stream: string] {
  return [`{${prefix}}:exchanges:seq`, `{${prefix}}:exchanges`];
}
