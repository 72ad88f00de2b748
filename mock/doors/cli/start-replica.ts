/**
 * startFake for a replica (`redis` given): the fake's HTTP door over the state of the fleet in
 * Redis (mock/replicas/), with the same doors, exit files and close as any startFake. Its own
 * module, which startFake loads only for a replica, so that no msw door loads a Redis client.
 */
import { createHash } from 'node:crypto';
import { ConfigError } from '../../base/config-error.ts';
import { stringifyJson } from '../../base/contract/lossless-json.ts';
import { defaultBanPolicy } from '../../base/quota/ban.ts';
import {
  type CreateFakeOptions,
  createFake,
  createSharedFake,
  fakeParts,
  type SharedFake,
} from '../../core/fake.ts';
import type { FleetSettings } from '../../replicas/fleet.ts';
import { type RedisTarget, redisTarget } from '../../replicas/redis-url.ts';
import { connectReplica } from '../../replicas/replica.ts';
import { connectFake } from '../connect/connect-fake.ts';
import { openListeningFake, type Places } from './fake-doors.ts';
import type { ReplicaStartOptions, StartedReplica } from './start-fake.ts';

/** The fleet's name in Redis when none is given. */
export const defaultRedisPrefix = 'petstore';

/** A short digest of a value, for settings too large or too secret to keep whole. */
function digest(value: unknown): string {
  return createHash('sha256')
    .update(stringifyJson(value ?? 'default'))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * The settings that make replicas one fake: every option that changes an answer, as the fake
 * resolves it (a default given and one left out are the same setting; a profile is the
 * settings it chose), with the keys and the seed as digests (the record lives in Redis; the keys
 * hold secrets). Where each replica listens, and what it writes or logs, may differ.
 */
function fleetSettings(options: CreateFakeOptions): FleetSettings {
  const { options: expanded, config, plans, seed, initialKeys } = fakeParts(options);
  const {
    origin: _origin,
    stagingOrigin: _stagingOrigin,
    allowedHosts: _allowedHosts,
    onExchange: _onExchange,
    controlAccess: _controlAccess,
    clock: _clock,
    profile: _profile,
    keys: _keys,
    seed: _seed,
    ban,
    ...given
  } = expanded;
  const {
    origins: _origins,
    allowedHosts: _hosts,
    onExchange: _log,
    controlAccess: _access,
    ...resolved
  } = config;
  const settings = JSON.parse(
    stringifyJson({
      ...given,
      ...resolved,
      ban: { ...defaultBanPolicy, ...ban },
      plans,
      keys: digest(initialKeys),
      seed: digest(seed),
    }),
  ) as Record<string, unknown>;
  return flattened(settings);
}

/** Nested settings as one level of dotted names (`ban.durationSeconds`), so a refusal names the one that differs. */
function flattened(settings: Record<string, unknown>, prefix = ''): FleetSettings {
  const flat: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(flat, flattened(value as Record<string, unknown>, `${prefix}${name}.`));
    else flat[`${prefix}${name}`] = value;
  }
  return flat;
}

/** A replica's fake, and its way out of the fleet. */
export interface ReplicaFake {
  readonly fake: SharedFake;
  /** Disconnects from Redis (once the doors are closed). */
  leave(): void;
}

/** How often a replica's recorders read the exchanges the fleet answered. */
const catchUpEveryMs = 1_000;

/**
 * The fake of a replica of the fleet `prefix` in the Redis at `target`, with createFake's
 * options (an origin included): a bad option throws the ConfigError createFake throws, before
 * Redis is reached; a Redis that cannot be reached, or whose fleet was started otherwise, a
 * ConfigError in one line (replicas/fleet.ts). The replica that founds the fleet seeds it.
 */
export async function createReplicaFake(
  options: CreateFakeOptions,
  target: RedisTarget,
  prefix = defaultRedisPrefix,
): Promise<ReplicaFake> {
  const { config } = await createFake({ ...options, seed: 'empty' });
  const access = config.controlAccess;
  const replica = await connectReplica({
    redis: target,
    prefix,
    settings: fleetSettings(options),
    controlToken: typeof access === 'object' ? access.token : undefined,
  });
  try {
    const fake = await createSharedFake({ ...options, clock: replica.clock }, replica.shared);
    await replica.seedIfFounded(() => fake.control.reset());
    // The recorders read the fleet's exchanges now and then, not only at a control call or an
    // exit file, so that the stream's cap trims none they have not read (under a fleet's load).
    const reading = setInterval(() => void fake.catchUp().catch(() => {}), catchUpEveryMs);
    reading.unref();
    return {
      fake,
      leave: () => {
        clearInterval(reading);
        replica.close();
      },
    };
  } catch (error) {
    replica.close();
    throw error;
  }
}

/** startFake for a replica of the fleet in `options.redis`. */
export async function startReplica(
  options: ReplicaStartOptions,
  places: Places,
): Promise<StartedReplica> {
  if (options.stateFile !== undefined)
    throw new ConfigError(
      'stateFile',
      'cannot be given with redis: the fleet keeps its state in Redis (see its durability settings in docs/replicas.md)',
    );
  const target = redisTarget(options.redis, undefined);
  if (target === undefined) throw new ConfigError('redis', 'must be a redis:// or rediss:// URL');
  const {
    host: _host,
    port: _port,
    stagingPort: _stagingPort,
    stateFile: _stateFile,
    exitFiles = {},
    redis: _redis,
    redisPrefix,
    ...createOptions
  } = options;
  const replica = await createReplicaFake(
    {
      ...createOptions,
      origin: places.production.origin,
      stagingOrigin: places.staging?.origin ?? false,
    },
    target,
    redisPrefix,
  );
  const { fake } = replica;
  const access = fake.config.controlAccess;
  const token = typeof access === 'object' ? { token: access.token } : {};
  // The exit files hold the fleet's record: what every replica answered, read last; with Redis
  // gone, what the replica's last reading took.
  const readFleetAndLeave = () =>
    fake
      .catchUp()
      .catch((error: unknown) =>
        process.stderr.write(
          `petstore-fake: the exit files hold the fleet's exchanges up to the last reading (${String(error)})\n`,
        ),
      )
      .finally(() => replica.leave());
  return openListeningFake(
    fake,
    places,
    (controlUrl) => connectFake(controlUrl, token).control,
    exitFiles,
    readFleetAndLeave,
  ).catch((error: unknown) => {
    replica.leave();
    throw error;
  });
}
