/**
 * One replica of a fleet: a fake's HTTP door whose pets, quota, clock and keys are the fleet's,
 * in Redis. It connects, founds or joins the fleet (fleet.ts), reads time from Redis
 * (fleet-clock.ts), and gives createSharedFake the shared state over its local copy: the store
 * and the ledger answer from Redis on every call, and the copy of the clock and keys is brought
 * to the fleet's version before every request (fleet-copy.ts).
 *
 * What Redis cannot do becomes a SharedStateError, which the fake answers 503
 * `store_unavailable`: a command that failed or timed out, and a fleet whose record is gone. A
 * replica never founds a fleet again by itself (that would serve the seed's pets in place of
 * the ones Redis lost); it rejoins one a control reset founded, and a reset on a fleet that is
 * gone founds it again.
 */
import { hostname } from 'node:os';
import type { ControllableClock } from '../base/clock/clock.ts';
import { createClock } from '../base/clock/clock.ts';
import { ConfigError } from '../base/config-error.ts';
import type { SharedQuota, SharedStore } from '../pipeline/fake-state.ts';
import {
  type LocalCopy,
  type SharedExchanges,
  type SharedState,
  SharedStateError,
  type SharedStateOver,
} from '../pipeline/shared-state.ts';
import { type FleetSettings, finishFounding, joinFleet } from './fleet.ts';
import type { FleetView } from './fleet-check-lua.ts';
import { fleetTimeSource } from './fleet-clock.ts';
import { fleetCopy } from './fleet-copy.ts';
import { type FleetExchanges, fleetExchanges } from './fleet-exchanges.ts';
import { FleetLostError, fleetStateStore } from './fleet-state.ts';
import { fleetKey } from './redis-keys.ts';
import { redisPetStore } from './redis-pet-store.ts';
import { redisQuotaLedger } from './redis-quota-ledger.ts';
import type { RedisTarget } from './redis-url.ts';
import { type ReplicaRedis, replicaRedis } from './replica-redis.ts';

/** How long a replica waits for Redis when it starts, before it refuses to. */
const connectTimeoutMs = 5_000;

/**
 * How many of the fleet's newest exchanges Redis keeps for the replicas' recorders to read: past
 * one fake's journal (1,000 by default), so a replica that reads now and then misses none.
 */
const exchangesKept = 5_000;

/**
 * How many exchanges one read of a catch-up takes: the recorders take a batch between two
 * requests' turns of the event loop, so a small one keeps the requests waiting behind it short.
 */
const catchUpBatch = 100;

/**
 * The fleet's exchanges, as a replica sends and reads them. Catch-ups run one at a time, each
 * from where the last one ended; exchanges the stream trimmed before this replica read them are
 * said, since its recorders then miss them.
 */
function sharedExchanges(
  stream: FleetExchanges,
  log: (line: string) => void,
): SharedExchanges & { forget(): void } {
  let last = 0;
  let failed = false;
  let reading: Promise<void> = Promise.resolve();
  const catchUp: SharedExchanges['catchUp'] = async (read, marked) => {
    let missed = 0;
    for (;;) {
      const batch = await stream.read(last, catchUpBatch);
      for (const { seq, replica, exchange } of batch) {
        if (last > 0) missed += seq - last - 1;
        last = seq;
        if (exchange === 'reset' || 'cleared' in exchange) marked(exchange);
        else
          read({
            ...exchange,
            arrival: seq,
            // Across processes nothing tells which came first but the order Redis took them.
            arrivalsWhenAnswered: seq,
            connection: `${replica} ${exchange.connection}`,
          });
      }
      if (batch.length < catchUpBatch) break;
    }
    if (missed > 0)
      log(
        `petstore-fake: ${missed} of the fleet's exchanges left Redis's stream (it keeps the newest ${exchangesKept}) before this replica read them: its journal, coverage, Pact file and client report miss them`,
      );
  };
  return {
    send(exchange) {
      stream.append(exchange).then(
        () => {
          failed = false;
        },
        (error: unknown) => {
          // The answer is out; the fleet's record of it is what is lost, said once per outage.
          if (!failed) log(`petstore-fake: an exchange did not reach Redis: ${String(error)}`);
          failed = true;
        },
      );
    },
    mark: async (mark) => {
      await stream.append(mark);
    },
    catchUp(read, marked) {
      const run = reading.then(() => catchUp(read, marked));
      reading = run.catch(() => {});
      return run;
    },
    last: () => last,
    /** Reads a fleet founded anew from its first exchange: its numbers start again at 1. */
    forget: () => {
      last = 0;
    },
  };
}

/** What a replica is started with. */
export interface ReplicaOptions {
  readonly redis: RedisTarget;
  /** The fleet's name in Redis (default `petstore`). */
  readonly prefix: string;
  /** The settings that make replicas one fake (fleet.ts). */
  readonly settings: FleetSettings;
  readonly controlToken?: string | undefined;
  /** Where the client's connection problems are said (default stderr), never with the password. */
  readonly log?: (line: string) => void;
  /** How long a founder may take to seed the fleet before this replica founds it anew (fleet.ts). */
  readonly foundingTimeoutMs?: number | undefined;
}

/** A replica connected to its fleet. */
export interface Replica {
  /** The clock the fake reads: the fleet's time source, set as the fleet's clock is. */
  readonly clock: ControllableClock;
  /** The shared state createSharedFake builds the fake on. */
  readonly shared: SharedStateOver;
  /**
   * Seeds the fleet with `seed` (the fake's reset) when this replica founded it, then opens it
   * to the others; does nothing on a replica that joined. A founder that was overtaken (another
   * replica founded the fleet anew once this one took longer than the founding time-out) wrote
   * nothing, its epoch being another than the fleet's, and says so: its copy joins the new
   * fleet on the next request, as after a reset elsewhere.
   */
  seedIfFounded(seed: () => Promise<void>): Promise<void>;
  /** Disconnects from Redis. */
  close(): void;
}

/** Runs `call`, and makes what node-redis throws a SharedStateError the fake answers 503. */
async function fromRedis<T>(call: () => Promise<T>, where: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof SharedStateError || error instanceof RangeError) throw error;
    throw new SharedStateError(
      'unavailable',
      `petstore-fake: Redis at ${where} did not answer (${String((error as Error).message).slice(0, 200)})`,
      { cause: error },
    );
  }
}

/**
 * Which calls made since a request began found the replica's copy current: each script that
 * checks the fleet's version (fleet-check-lua.ts), and each change saved on it, takes a ticket
 * as it is sent and, once it passed, confirms it. A call sent after a control call was
 * acknowledged runs after it in Redis, so an answer confirmed by one is an answer of the
 * fleet's version.
 */
function confirmations() {
  let issued = 0;
  let confirmed = 0;
  return {
    begin: () => issued,
    confirmedSince: (ticket: number) => confirmed > ticket,
    /** Runs `call`, a check of the version, confirming its ticket once it passed. */
    async confirm<T>(call: () => Promise<T>): Promise<T> {
      const ticket = ++issued;
      const result = await call();
      confirmed = Math.max(confirmed, ticket);
      return result;
    },
  };
}

/**
 * Every method of `target` run through fromRedis; those named in `checked` (the ones whose
 * script checks the fleet's version) through `confirm` too.
 */
function guarded<T extends object>(
  target: T,
  where: string,
  checked: readonly (keyof T)[],
  confirm: <R>(call: () => Promise<R>) => Promise<R>,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') wrapped[name] = value;
    else if (checked.includes(name as keyof T))
      wrapped[name] = (...args: unknown[]) => fromRedis(() => confirm(() => value(...args)), where);
    else wrapped[name] = (...args: unknown[]) => fromRedis(() => value(...args), where);
  }
  return wrapped as T;
}

/** Connects `redis`, or throws a ConfigError in one line once it could not in a few seconds. */
async function connect(redis: ReplicaRedis, where: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConfigError(
            'redis',
            `cannot reach ${where} within ${connectTimeoutMs / 1000} s: start Redis there, or give another --redis URL`,
          ),
        ),
      connectTimeoutMs,
    );
  });
  try {
    await Promise.race([redis.connect(), timeout]);
  } catch (error) {
    redis.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects to the fleet `options.prefix` at `options.redis`, founding it when there is none:
 * throws a ConfigError in one line when Redis cannot be reached or the fleet there was started
 * otherwise (fleet.ts).
 */
export async function connectReplica(options: ReplicaOptions): Promise<Replica> {
  const { redis: target, prefix, settings, controlToken, foundingTimeoutMs } = options;
  const where = target.shown;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const redis = replicaRedis(target.url);
  let lastProblem = '';
  const password = new URL(target.url).password;
  const hidden = (text: string) =>
    password === ''
      ? text
      : text.replaceAll(password, '***').replaceAll(decodeURIComponent(password), '***');
  redis.on('error', (error: Error) => {
    // node-redis reports each failed reconnection; one line per kind of problem is enough.
    const problem = `petstore-fake: Redis at ${where}: ${hidden(`${error.name}: ${error.message}`)}`;
    if (problem !== lastProblem) log(problem);
    lastProblem = problem;
  });
  redis.on('ready', () => {
    lastProblem = '';
  });
  await connect(redis, where);
  let fleet: Awaited<ReturnType<typeof joinFleet>>;
  try {
    fleet = await joinFleet(redis, prefix, { settings, controlToken, foundingTimeoutMs });
  } catch (error) {
    redis.destroy();
    throw error;
  }
  const time = await fleetTimeSource(redis);
  // What the journal names it by: hosts differ between a Deployment's pods, processes on a host.
  const replicaName = `${hostname()}:${process.pid}`;
  const clock = createClock(time.now);
  const view = { epoch: fleet.epoch, version: () => '0' } as { epoch: string } & FleetView;
  const shared = (local: LocalCopy): SharedState => {
    const initialKeys = local.keys.map((key) => ({ ...key }));
    const copy = fleetCopy(fleetStateStore(redis, prefix, view), local);
    const exchanges = sharedExchanges(
      fleetExchanges(redis, prefix, view, replicaName, exchangesKept),
      log,
    );
    view.version = () => copy.version();
    /**
     * Joins the fleet again when a reset founded it anew; `found` founds it when it is gone.
     * Resolves whether this replica founded it.
     */
    const rejoin = async (found: boolean) => {
      if (!found && (await redis.exists(fleetKey(prefix))) === 0) throw new FleetLostError(prefix);
      const again = await joinFleet(redis, prefix, {
        settings,
        controlToken,
        whileFounding: found ? 'wait' : 'refuse',
      });
      view.epoch = again.epoch;
      // The fleet's saved clock and keys replace this copy's; a fleet that saved none has the
      // starting ones.
      local.clock.reset();
      local.keys.splice(0, local.keys.length, ...initialKeys.map((key) => ({ ...key })));
      for (const reset of local.policies.map((policy) => policy.load(undefined))) reset();
      copy.forget();
      exchanges.forget();
      return again.founded;
    };
    const confirming = confirmations();
    const refresh = () =>
      fromRedis(
        () =>
          confirming.confirm(async () => {
            try {
              return await copy.refresh();
            } catch (error) {
              if (!(error instanceof FleetLostError)) throw error;
              await rejoin(false);
              await copy.refresh();
              return true;
            }
          }),
        where,
      );
    return {
      exchanges,
      store: guarded<SharedStore>(
        redisPetStore(redis, prefix, view),
        where,
        ['create', 'get', 'list', 'snapshot'],
        confirming.confirm,
      ),
      quota: guarded<SharedQuota>(
        redisQuotaLedger(redis, prefix, view),
        where,
        ['decide', 'decideWith'],
        confirming.confirm,
      ),
      begin: confirming.begin,
      confirmedSince: confirming.confirmedSince,
      refresh,
      // A change is made on a current copy and saved only on the fleet's version: an answer made
      // from it (a forced answer it spent) is the fleet's.
      change: (change) => fromRedis(() => confirming.confirm(() => copy.change(change)), where),
      async restart(reset) {
        const founded = await fromRedis(async () => {
          try {
            await copy.refresh();
            return false;
          } catch (error) {
            if (!(error instanceof FleetLostError)) throw error;
            return rejoin(true);
          }
        }, where);
        const result = await reset();
        // Founded again by this reset: the other replicas join it once it is seeded.
        if (founded) await fromRedis(() => finishFounding(redis, prefix, view.epoch), where);
        return result;
      },
    };
  };
  return {
    clock,
    shared,
    async seedIfFounded(seed) {
      if (!fleet.founded) return;
      try {
        await seed();
      } catch (error) {
        if (!(error instanceof FleetLostError)) throw error;
        log(
          `petstore-fake: another replica founded the fleet under the Redis prefix ${JSON.stringify(prefix)} anew while this one seeded it, which it did not: this replica serves that fleet`,
        );
        return;
      }
      await finishFounding(redis, prefix, view.epoch);
    },
    close: () => {
      time.stop();
      redis.destroy();
    },
  };
}
