/**
 * The fleet's record in Redis: what makes processes started with one Redis URL and prefix
 * replicas of ONE fake. The first replica founds it (one script, so two replicas starting at
 * once found one fleet, never two); every later one joins it only if it was started with the
 * same settings and control token, and refuses in one line naming what differs otherwise: a
 * replica with another ban length or keys file would answer the same key differently from its
 * neighbours, which no load balancer can hide.
 *
 * The record holds a format name, so that a Redis holding something else under the prefix (an
 * older layout, another program's keys) is refused rather than read; an epoch, a random id made
 * when the fleet is founded, which tells a fleet whose Redis lost its data (no persistence, a
 * flush) from a new one; and only a hash of the control token (scrypt, salted with the epoch):
 * the token is a password, and Redis's memory, dumps and replicas are not secret stores.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { ConfigError } from '../base/config-error.ts';
import { FleetLostError } from './fleet-state.ts';
import { assertRedisPrefix, fleetKey, fleetKeyPattern } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/** The format of the fleet's keys this code reads and writes. */
export const fleetFormat = 'petstore-fake replicas 1';

const scryptAsync = promisify(scrypt);

/**
 * The settings that make replicas one fake, by name as the CLI spells them (`ban-seconds`,
 * `keys`...), each a JSON-safe value: two replicas are one fake when every value is equal.
 */
export type FleetSettings = Readonly<Record<string, unknown>>;

/** A replica's place in its fleet, once it joined. */
export interface Fleet {
  /** The fleet's epoch: the same on every replica of one fleet, new when a fleet is founded. */
  readonly epoch: string;
  /** Whether this replica founded the fleet (it seeds the store); the others found it made. */
  readonly founded: boolean;
}

/** JSON with every object's names sorted, so equal settings have equal text wherever made. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_name, each: unknown) =>
    each !== null && typeof each === 'object' && !Array.isArray(each)
      ? Object.fromEntries(Object.entries(each).sort(([a], [b]) => (a < b ? -1 : 1)))
      : each,
  );
}

/** The control token's hash as the fleet keeps it (empty for no token). */
async function tokenHash(token: string | undefined, epoch: string): Promise<string> {
  if (token === undefined) return '';
  const hash = (await scryptAsync(token, `petstore-fake fleet ${epoch}`, 32)) as Buffer;
  return hash.toString('base64');
}

/** The names whose values differ between two settings, sorted. */
function differingSettings(mine: FleetSettings, fleets: FleetSettings): string[] {
  const names = new Set([...Object.keys(mine), ...Object.keys(fleets)]);
  return [...names]
    .filter((name) => canonicalJson(mine[name]) !== canonicalJson(fleets[name]))
    .sort();
}

/**
 * How long a founder may take to seed its fleet before a replica that finds it still unseeded
 * founds it anew: far past a founder's start, which seeds it at once, so only a founder that
 * died first is overtaken.
 */
const defaultFoundingTimeoutMs = 10_000;

/** What a replica brings to its fleet. */
export interface JoinOptions {
  readonly settings: FleetSettings;
  /** The control token, if the control surface wants one. */
  readonly controlToken?: string | undefined;
  /**
   * While another replica founds the fleet: wait until it seeded it (a replica starting; the
   * default), or reject with FleetLostError (a request, which answers 503 at once).
   */
  readonly whileFounding?: 'wait' | 'refuse';
  /** How long a founder may take to seed the fleet before a waiting replica founds it anew. */
  readonly foundingTimeoutMs?: number | undefined;
}

/** How often a replica waiting for a founder looks at the fleet's record again. */
const foundingPollMs = 50;

/**
 * Founds the fleet `prefix` on `redis` (connected), or joins the one there: throws a ConfigError
 * in one line when Redis holds another format under the prefix, or when the fleet was started
 * with other settings or another control token (naming the settings, never the token). A fleet
 * another replica founds and has not seeded yet (finishFounding) is not joined: a replica that
 * joined then would serve an empty store, and its creates would be lost to the founder's seed.
 */
export async function joinFleet(
  redis: ReplicaRedis,
  prefix: string,
  {
    settings,
    controlToken,
    whileFounding = 'wait',
    foundingTimeoutMs = defaultFoundingTimeoutMs,
  }: JoinOptions,
): Promise<Fleet> {
  assertRedisPrefix(prefix);
  const key = fleetKey(prefix);
  const where = `the Redis prefix ${JSON.stringify(prefix)}`;
  if ((await redis.exists(key)) === 0) {
    // Keys under the prefix but no record: another program's, or a fleet whose record alone was
    // deleted; a replica founding a fleet over them would read them as its own. A replica
    // founding the fleet at the same moment writes its record before any other key, so keys
    // found while the record is there again are that fleet's, which this replica joins.
    let stray: string | undefined;
    for await (const keys of redis.scanIterator({ MATCH: fleetKeyPattern(prefix), COUNT: 100 })) {
      stray = keys[0];
      if (stray !== undefined) break;
    }
    if (stray !== undefined && (await redis.exists(key)) === 0)
      throw new ConfigError(
        'redis',
        `holds keys under ${where} but no fleet's record (such as ${JSON.stringify(stray)}): start with another --redis-prefix, or delete them`,
      );
  }
  const epoch = randomBytes(16).toString('hex');
  const settingsJson = canonicalJson(settings);
  const hash = await tokenHash(controlToken, epoch);
  // A replica that waits founds the fleet anew once its founder is overdue, so the wait is
  // bounded; one that refuses never founds it (it would serve no pets where the founder seeds).
  const overdueMs = whileFounding === 'wait' ? foundingTimeoutMs : Number.MAX_SAFE_INTEGER;
  const join = () => redis.joinFleet(key, fleetFormat, epoch, settingsJson, hash, overdueMs);
  let reply = await join();
  while (reply.outcome === 'founding') {
    if (whileFounding === 'refuse') throw new FleetLostError(prefix);
    await new Promise((resolve) => setTimeout(resolve, foundingPollMs));
    reply = await join();
  }
  if (reply.outcome === 'format')
    throw new ConfigError(
      'redis',
      `holds ${reply.found === 'no format' ? 'a record without a format' : JSON.stringify(reply.found)} under ${where}, where this fake keeps ${JSON.stringify(fleetFormat)}: start with another --redis-prefix`,
    );
  if (reply.outcome === 'founded') return { epoch, founded: true };
  const differing = differingSettings(settings, JSON.parse(reply.settings) as FleetSettings);
  if (differing.length > 0)
    throw new ConfigError(
      'redis',
      `fleet under ${where} was started with other ${differing.join(', ')}: start every replica with the same values`,
    );
  const mine = await tokenHash(controlToken, reply.epoch);
  const same =
    mine.length === reply.token.length &&
    timingSafeEqual(Buffer.from(mine), Buffer.from(reply.token));
  if (!same) {
    const fleets =
      reply.token === ''
        ? 'no control token'
        : mine === ''
          ? 'a control token'
          : 'another control token';
    throw new ConfigError(
      'redis',
      `fleet under ${where} was started with ${fleets}: give every replica the same PETSTORE_CONTROL_TOKEN`,
    );
  }
  return { epoch: reply.epoch, founded: false };
}

/** Opens the fleet the replica holding `epoch` founded and seeded to the other replicas. */
export async function finishFounding(
  redis: ReplicaRedis,
  prefix: string,
  epoch: string,
): Promise<void> {
  await redis.finishFounding(fleetKey(prefix), epoch);
}
