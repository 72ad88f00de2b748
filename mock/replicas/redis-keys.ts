/**
 * Where a fleet of replicas keeps its state in Redis: every key starts with the fleet's prefix
 * (several fakes may share one Redis), and each key names its hash tag, so that a later Redis
 * Cluster needs nothing but the tags: what one API key's decision touches carries the tag
 * `{<key id>}` and lands in one hash slot, which is all a script may read there.
 *
 *   <prefix>:quota:{<key id>}   a hash: the key's minute and day windows, violations, retryAt,
 *                               bannedUntil (KeyUsage's fields, flattened); one per key id, and
 *                               key ids are those of the keys file and the control surface, so
 *                               the keys are bounded.
 *   <prefix>:{store}:next-id    the id the next create takes.
 *   <prefix>:{store}:pets       a hash: each pet's JSON text by id.
 *   <prefix>:{store}:ids        a list: every id, in increasing order (a restore writes them
 *                               sorted, and a create appends the next id, past every stored
 *                               one), read from either end for either order.
 *   <prefix>:{store}:ids:<status>  the same, for the pets of one status.
 *
 * The store's keys share the tag `{store}`: a create writes them together in one script.
 */
import { ConfigError } from '../base/config-error.ts';
import type { PetStatus } from '../base/contract/types.ts';
import { keyIdPattern } from '../base/quota/plans.ts';

/** A fleet's prefix: no `{` or `}` (it would change a key's hash tag) and no glob characters (a reset scans for its keys). */
const prefixPattern = /^[A-Za-z0-9._:-]{1,64}$/;

/** Throws a ConfigError unless `prefix` can start a fleet's keys. */
export function assertRedisPrefix(prefix: string): void {
  if (!prefixPattern.test(prefix))
    throw new ConfigError(
      'redis prefix',
      `must be 1 to 64 characters of A-Z a-z 0-9 . _ : -, got ${JSON.stringify(prefix)}`,
    );
}

/** The usage hash of the key `keyId`, under its own hash tag. */
export function quotaKey(prefix: string, keyId: string): string {
  // Key ids are plain (keyIdPattern): never a brace that would move the tag.
  if (!keyIdPattern.test(keyId)) throw new Error(`petstore-fake: key id ${JSON.stringify(keyId)}`);
  return `${prefix}:quota:{${keyId}}`;
}

/** The SCAN pattern of every usage hash of the fleet `prefix`. */
export function quotaKeyPattern(prefix: string): string {
  return `${prefix}:quota:{*}`;
}

/** The pet store's keys of the fleet `prefix`, all under the tag `{store}`. */
export function storeKeys(prefix: string) {
  const store = `${prefix}:{store}`;
  return {
    nextId: `${store}:next-id`,
    pets: `${store}:pets`,
    ids: `${store}:ids`,
    statusIds: (status: PetStatus) => `${store}:ids:${status}`,
  };
}
