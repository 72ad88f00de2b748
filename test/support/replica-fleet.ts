/**
 * For the replicas' tests: a fleet as a QA team runs one. A redis-server of the test's own
 * (redis-server.ts), `count` processes of `petstore-fake --redis <url>` (the CLI, as a Deployment
 * runs it) on free ports, and a round-robin front over them (round-robin-front.ts), which is where
 * every request of a test goes. The harness's target over the front moves the fleet's frozen
 * clock through the control surface, as it moves one fake's.
 */
import type { HarnessClock } from '../../contract-tests/http/clock.ts';
import { directRoute, fullCapabilities, type Target } from '../../contract-tests/http/target.ts';
import { connectFake, type RemoteControl } from '../../mock/doors/connect/connect-fake.ts';
import { type FakeProcess, freePort, startFakeProcess } from './fake-process.ts';
import { type RedisServer, type RedisServerOptions, startRedisServer } from './redis-server.ts';
import { type RoundRobinFront, startRoundRobinFront } from './round-robin-front.ts';

/** A running fleet. */
export interface ReplicaFleet {
  readonly redis: RedisServer;
  readonly replicas: FakeProcess[];
  /** Each replica's origin, in the order they started. */
  readonly origins: string[];
  readonly front: RoundRobinFront;
  /** The front's base URL, ending in `/v1`. */
  readonly url: string;
  /** The fleet's control surface, through the front. */
  readonly control: RemoteControl;
  /** Stops the front, the replicas and Redis. */
  close(): Promise<void>;
}

/** What a fleet is started with. */
export interface ReplicaFleetOptions {
  /** How many replicas (default 3). */
  readonly count?: number;
  /** Flags every replica gets beside `--redis` and its port. */
  readonly flags?: readonly string[];
  /** How the fleet's Redis keeps its data (default: no persistence). */
  readonly redis?: RedisServerOptions;
}

/** Starts `count` replicas (one after the other, the first founds the fleet) behind a front. */
export async function startReplicaFleet(options: ReplicaFleetOptions = {}): Promise<ReplicaFleet> {
  const redis = await startRedisServer(options.redis);
  const replicas: FakeProcess[] = [];
  const origins: string[] = [];
  try {
    for (let index = 0; index < (options.count ?? 3); index++) {
      const port = await freePort();
      replicas.push(
        await startFakeProcess([
          '--redis',
          redis.url,
          '--port',
          String(port),
          '--no-staging',
          '--quiet',
          ...(options.flags ?? []),
        ]),
      );
      origins.push(`http://127.0.0.1:${port}`);
    }
  } catch (error) {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    await redis.remove();
    throw error;
  }
  const front = await startRoundRobinFront(origins);
  const frontOrigin = new URL(front.baseUrl).origin;
  return {
    redis,
    replicas,
    origins,
    front,
    url: front.baseUrl,
    control: connectFake(`${frontOrigin}/__control`).control,
    async close() {
      await front.close();
      for (const replica of replicas) replica.child.kill('SIGKILL');
      await redis.remove();
    },
  };
}

/**
 * The harness's target over a fleet's front: the clock frozen now and moved only by the
 * harness's waits, through whichever replica the front picks.
 */
export async function fleetTarget(
  fleet: ReplicaFleet,
  keys: { readonly apiKey: string; readonly secondApiKey?: string },
): Promise<Target> {
  await fleet.control.freezeTime(true);
  let now = await fleet.control.now();
  const clock: HarnessClock = {
    now: () => now,
    sleep: async (ms) => {
      await fleet.control.advanceTime(Math.max(0, ms) / 1000);
      now = await fleet.control.now();
    },
  };
  return {
    name: `three replicas behind a front (${fleet.url})`,
    baseUrl: fleet.url,
    ...keys,
    loopback: true,
    capabilities: fullCapabilities,
    viaPrism: false,
    route: directRoute(fleet.url),
    clock,
    close: () => fleet.close(),
  };
}
