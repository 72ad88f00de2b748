/**
 * The Redis client of a replica: node-redis's base client with the fleet's scripts registered,
 * so each decision is one EVALSHA. Only mock/replicas/ imports the client library, and no entry
 * a browser loads reaches this folder (.dependency-cruiser.cjs).
 */
import { createClient } from '@redis/client';
import { createPetScript, readPetsScript } from './pet-store-scripts.ts';
import { decideQuotaScript } from './quota-script.ts';

/**
 * A client for the Redis at `url` (`redis://` or `rediss://`, a database number), not yet
 * connected: the caller listens for its `error` events and connects it, as node-redis's README
 * shows, and destroys it when the replica stops.
 * @example const redis = replicaRedis(url).on('error', report); await redis.connect();
 */
export function replicaRedis(url: string) {
  return createClient({
    url,
    scripts: {
      decideQuota: decideQuotaScript,
      createPet: createPetScript,
      readPets: readPetsScript,
    },
  });
}

/** A replica's Redis client, with the fleet's scripts. */
export type ReplicaRedis = ReturnType<typeof replicaRedis>;
