/**
 * The Redis client of a replica: node-redis's base client with the fleet's scripts registered,
 * so each request is one EVALSHA (its decision and store call) and the control surface's reads
 * EVALSHA_RO (Redis 7 or later, or Valkey). Only mock/replicas/ imports the client library, and
 * no entry a browser loads reaches this folder (.dependency-cruiser.cjs).
 */
import { createClient } from '@redis/client';
import { appendExchangeScript } from './fleet-exchanges-script.ts';
import { finishFoundingScript, joinFleetScript } from './fleet-script.ts';
import { checkFleetStateScript, saveFleetStateScript } from './fleet-state-scripts.ts';
import {
  createPetScript,
  getPetScript,
  readPetsScript,
  replacePetsScript,
} from './pet-store-scripts.ts';
import { answerRequestScript } from './request-script.ts';

/** How long a command may wait for Redis's answer before it fails. */
const commandTimeoutMs = 2_000;

/**
 * A client for the Redis at `url` (`redis://` or `rediss://`, a database number), not yet
 * connected: the caller listens for its `error` events and connects it, as node-redis's README
 * shows, and destroys it when the replica stops. While Redis is unreachable a command fails at
 * once instead of waiting in node-redis's offline queue: a create queued there would run when
 * Redis came back, after its request had been answered as failed. A command sent fails after
 * the time-out; node-redis reconnects by itself.
 * @example const redis = replicaRedis(url).on('error', report); await redis.connect();
 */
export function replicaRedis(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    scripts: {
      answerRequest: answerRequestScript,
      createPet: createPetScript,
      readPets: readPetsScript,
      getPet: getPetScript,
      replacePets: replacePetsScript,
      joinFleet: joinFleetScript,
      finishFounding: finishFoundingScript,
      saveFleetState: saveFleetStateScript,
      checkFleetState: checkFleetStateScript,
      appendExchange: appendExchangeScript,
    },
  });
}

/** A replica's Redis client, with the fleet's scripts. */
export type ReplicaRedis = ReturnType<typeof replicaRedis>;
