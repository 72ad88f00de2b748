/**
 * Replicas on Redis (`replicas`): the fake as `npm start` runs it, in memory, beside one replica
 * on a Redis of its own and two replicas on another Redis, every one the same bundle with the
 * same flags plus `--redis`. The two replicas take the load straight on their two ports (the
 * load generator's connections alternate between them): a round-robin front would be one more
 * busy Node process on a 2-core machine, and what it costs is the front's, not the fleet's.
 * Each request runs on each setup in interleaved rounds, and reported are req/s, p99, the CPU
 * per request of the replica processes and of redis-server (from /proc), and Redis's calls per
 * request from its command statistics, of which the commands clients send are the round trips
 * (redis-command-stats.ts). Last, 20 connections over the two replicas spend one key of a small
 * limit with the fleet's clock frozen: the section fails unless exactly the limit is admitted.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReplicaRedis, replicaRedis } from '../mock/replicas/replica-redis.ts';
import { type RedisServer, startRedisServer } from '../test/support/redis-server.ts';
import { type LoadResult, runLoad } from './load.ts';
import { loadAverage } from './machine.ts';
import type { BenchOptions } from './options.ts';
import { BenchError, freePort, type RunningServer, startServer } from './processes.ts';
import {
  type CommandSources,
  callsPerRequest,
  infoCounter,
  parseCommandStats,
  parseMonitor,
  roundTripsPerRequest,
} from './redis-command-stats.ts';
import { type BenchRequest, benchHeaders, benchKey, benchRequests } from './requests.ts';
import { baseUrl, fakeSpec } from './servers.ts';
import { median, spread } from './stats.ts';

/** The three ways the fake runs here. */
export type ReplicaSetupId = 'memory' | 'one' | 'two';

/** How the setups are named in tables. */
export const replicaSetupLabels: Record<ReplicaSetupId, string> = {
  memory: 'in memory (one process)',
  one: 'one replica on Redis',
  two: 'two replicas on one Redis',
};

/** The requests measured: a page of 20, a create (as the brief of the section sends it), a get. */
export const replicaRequests: readonly BenchRequest[] = [
  benchRequests.find((request) => request.id === 'list') as BenchRequest,
  {
    id: 'create',
    label: 'POST /v1/pets',
    method: 'POST',
    path: '/pets',
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    status: 201,
  },
  benchRequests.find((request) => request.id === 'get') as BenchRequest,
];

/** One request on one setup: medians across rounds. */
export interface ReplicaCell {
  readonly requestsPerSecond: number;
  readonly rpsSpread: { readonly min: number; readonly max: number };
  readonly p99Ms: number;
  /** CPU µs a request of the fake's processes, all replicas together. */
  readonly replicaCpuUs: number;
  /** CPU µs a request of redis-server; NaN in memory. */
  readonly redisCpuUs: number;
  /** Replicas' and Redis's CPU µs a request, summed round by round. */
  readonly totalCpuUs: number;
  /** Redis's calls a request of each command (median across rounds), a script's own included. */
  readonly callsPerRequest: Readonly<Record<string, number>>;
  /**
   * Commands a client sent a request (commandstats' calls of the commands the MONITOR sample saw
   * clients send): the round trips when none are pipelined.
   */
  readonly roundTrips: number;
}

/** The exactness check's outcome. */
export interface ReplicaExactness {
  readonly limitPerMinute: number;
  readonly connections: number;
  readonly sent: number;
  readonly admitted: number;
  readonly statuses: Readonly<Record<string, number>>;
}

/** What the section measured. */
export interface ReplicasResult {
  readonly requests: readonly BenchRequest[];
  readonly setups: readonly ReplicaSetupId[];
  readonly cells: Readonly<Record<string, Readonly<Record<ReplicaSetupId, ReplicaCell>>>>;
  /**
   * Round trips a request, by request id: Redis's read events per request over the MONITOR
   * sample's requests, sent one at a time to one replica (commands written together count once).
   */
  readonly sequentialRoundTrips: Readonly<Record<string, number>>;
  /** Each command's sources in the MONITOR sample, for the report. */
  readonly commandSources: Readonly<Record<string, { client: number; script: number }>>;
  readonly exactness: ReplicaExactness;
  readonly rounds: number;
  readonly seconds: number;
  readonly connections: number;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
}

/** The key the exactness check spends, on a plan of its own. */
const exactnessKey = 'bench-exactness-key';
const exactnessLimit = 100;
const exactnessConnections = 20;
/** Requests the exactness check sends: ten times its limit, so the limit is what stops it. */
const exactnessRequests = exactnessLimit * 10;

/**
 * The keys every setup runs with: the bench key (its limits raised out of reach by the bench's
 * `--enterprise` flag) and the exactness key on a plan of `exactnessLimit` a minute. The same
 * file for all three, so the in-memory fake knows as many keys as the replicas.
 */
function writeKeysFile(dir: string): string {
  const file = join(dir, 'keys.json');
  writeFileSync(
    file,
    JSON.stringify({
      plans: {
        enterprise: { perMinute: 10_000, perDay: 10_000_000 },
        exactness: { perMinute: exactnessLimit, perDay: 1_000_000 },
      },
      keys: [
        { id: 'bench', key: benchKey, plan: 'enterprise' },
        { id: 'exactness', key: exactnessKey, plan: 'exactness' },
      ],
    }),
  );
  return file;
}

/** A Redis under test, with the client the bench reads its statistics through. */
interface MeasuredRedis {
  readonly server: RedisServer;
  readonly pid: number;
  readonly client: ReplicaRedis;
}

async function measuredRedis(): Promise<MeasuredRedis> {
  const server = await startRedisServer();
  const client = replicaRedis(server.url).on('error', (error: unknown) =>
    console.error(`bench: replicas: the statistics client: ${String(error)}`),
  );
  await client.connect();
  const pid = Number(/^process_id:(\d+)/m.exec(await client.info('server'))?.[1]);
  if (!Number.isInteger(pid)) throw new BenchError('replicas: INFO server gave no process_id');
  return { server, pid, client };
}

/** One setup: the base URLs the load is spread over, the fake's processes, its Redis. */
interface Setup {
  readonly id: ReplicaSetupId;
  readonly bases: readonly string[];
  readonly processes: readonly RunningServer[];
  readonly redis: MeasuredRedis | undefined;
}

/** Requests of each kind in the MONITOR sample. */
export const replicaSampleRequests = 200;

/** A MONITOR sample of `redis` while `load` runs: each command by who sent it. */
async function monitorSample(redis: RedisServer, load: () => Promise<unknown>) {
  const socket = connect(redis.port, '127.0.0.1');
  await once(socket, 'connect');
  let stream = '';
  socket.on('data', (chunk: Buffer) => {
    stream += chunk.toString('utf8');
  });
  socket.write('MONITOR\r\n');
  while (!stream.startsWith('+OK\r\n')) await new Promise((resolve) => setTimeout(resolve, 5));
  await load();
  // The stream lags the replies a little: wait for the last commands to arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.destroy();
  return parseMonitor(stream);
}

/** One measured run of a request on a setup. */
interface RoundFigures {
  readonly load: LoadResult;
  readonly replicaCpuUs: number;
  readonly redisCpuUs: number;
  readonly calls: Record<string, number>;
}

async function runOn(
  setup: Setup,
  request: BenchRequest,
  connections: number,
  seconds: number,
): Promise<RoundFigures> {
  const redis = setup.redis;
  const before = redis === undefined ? undefined : await redis.client.info('commandstats');
  const load = await runLoad({
    url: setup.bases.map((base) => `${base}${request.path}`),
    method: request.method,
    headers: { ...benchHeaders },
    ...(request.body === undefined ? {} : { body: request.body }),
    connections,
    durationSeconds: seconds,
    watchedPids: [
      ...setup.processes.map((process) => process.pid),
      ...(redis === undefined ? [] : [redis.pid]),
    ],
  });
  const after = redis === undefined ? undefined : await redis.client.info('commandstats');
  if (load.non2xx > 0 || load.errors > 0)
    throw new BenchError(
      `replicas: ${request.label} on ${replicaSetupLabels[setup.id]} answered ${JSON.stringify(load.statuses)} with ${load.errors} errors`,
    );
  const cpu = load.watchedCpuUsPerRequest.map((us) => us ?? Number.NaN);
  const replicaCpuUs = cpu.slice(0, setup.processes.length).reduce((sum, us) => sum + us, 0);
  return {
    load,
    replicaCpuUs,
    redisCpuUs: redis === undefined ? Number.NaN : (cpu.at(-1) ?? Number.NaN),
    calls:
      before === undefined || after === undefined
        ? {}
        : callsPerRequest(parseCommandStats(before), parseCommandStats(after), load.requests),
  };
}

function cellOf(rounds: readonly RoundFigures[], sources: CommandSources): ReplicaCell {
  const commands = [...new Set(rounds.flatMap((round) => Object.keys(round.calls)))].sort();
  const calls = Object.fromEntries(
    commands.map((command) => [command, median(rounds.map((round) => round.calls[command] ?? 0))]),
  );
  const rps = rounds.map((round) => round.load.requestsPerSecond);
  return {
    requestsPerSecond: median(rps),
    rpsSpread: spread(rps),
    p99Ms: median(rounds.map((round) => round.load.p99Ms)),
    replicaCpuUs: median(rounds.map((round) => round.replicaCpuUs)),
    redisCpuUs: median(rounds.map((round) => round.redisCpuUs)),
    totalCpuUs: median(
      rounds.map(
        (round) => round.replicaCpuUs + (Number.isNaN(round.redisCpuUs) ? 0 : round.redisCpuUs),
      ),
    ),
    callsPerRequest: calls,
    roundTrips: roundTripsPerRequest(calls, sources),
  };
}

/**
 * 20 connections over the two replicas spend the exactness key, the fleet's clock frozen so its
 * minute cannot roll over: exactly the limit must be admitted.
 */
async function measureExactness(setup: Setup): Promise<ReplicaExactness> {
  const origin = new URL(setup.bases[0] as string).origin;
  const frozen = await fetch(`${origin}/__control/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ freeze: true }),
  });
  await frozen.arrayBuffer();
  if (!frozen.ok) throw new BenchError(`replicas: freezing the clock answered ${frozen.status}`);
  const load = await runLoad({
    url: setup.bases.map((base) => `${base}/pets?limit=20`),
    headers: { Authorization: `Bearer ${exactnessKey}` },
    connections: exactnessConnections,
    amount: exactnessRequests,
  });
  const admitted = Object.entries(load.statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    limitPerMinute: exactnessLimit,
    connections: exactnessConnections,
    sent: load.requests,
    admitted,
    statuses: load.statuses,
  };
}

/** Runs the replicas section; throws, after printing its figures, when the count is not exact. */
export async function measureReplicas(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ReplicasResult> {
  const loadBefore = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), 'bench-replicas-'));
  const keys = writeKeysFile(dir);
  const processes: RunningServer[] = [];
  const redises: MeasuredRedis[] = [];
  const start = async (name: string, flags: readonly string[]) => {
    const port = await freePort();
    const server = await startServer({ ...fakeSpec(port, ['--keys', keys, ...flags]), name });
    processes.push(server);
    return { server, base: baseUrl('fake', port) };
  };
  try {
    const memory = await start('fake in memory', []);
    const oneRedis = await measuredRedis();
    redises.push(oneRedis);
    const oneReplica = await start('replica 1 of 1', ['--redis', oneRedis.server.url]);
    const twoRedis = await measuredRedis();
    redises.push(twoRedis);
    // One after the other: the first founds the fleet, the second joins it.
    const first = await start('replica 1 of 2', ['--redis', twoRedis.server.url]);
    const second = await start('replica 2 of 2', ['--redis', twoRedis.server.url]);
    const setups: Setup[] = [
      { id: 'memory', bases: [memory.base], processes: [memory.server], redis: undefined },
      { id: 'one', bases: [oneReplica.base], processes: [oneReplica.server], redis: oneRedis },
      {
        id: 'two',
        bases: [first.base, second.base],
        processes: [first.server, second.server],
        redis: twoRedis,
      },
    ];
    const { connections } = options;
    for (const setup of setups)
      for (const request of replicaRequests)
        await runOn(setup, request, connections, options.warmupSeconds);
    // Which commands a replica sends and which its scripts run, from Redis's own MONITOR, in a
    // short pass of its own: MONITOR slows Redis, so no timed round runs under it.
    const sequentialRoundTrips: Record<string, number> = {};
    const reads = async () =>
      infoCounter(await oneRedis.client.info('stats'), 'total_reads_processed');
    const sources = await monitorSample(oneRedis.server, async () => {
      for (const request of replicaRequests) {
        const before = await reads();
        await runLoad({
          url: `${oneReplica.base}${request.path}`,
          method: request.method,
          headers: { ...benchHeaders },
          ...(request.body === undefined ? {} : { body: request.body }),
          connections: 1,
          amount: replicaSampleRequests,
        });
        // The second INFO's own read is in its count.
        sequentialRoundTrips[request.id] = ((await reads()) - before - 1) / replicaSampleRequests;
      }
    });
    const rounds = Math.max(1, options.rounds);
    const figures = new Map<string, RoundFigures[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const [index, request] of replicaRequests.entries()) {
        // The order rotates each round, so a noisy moment on the machine hurts every setup alike.
        const shift = (round + index) % setups.length;
        const order = [...setups.slice(shift), ...setups.slice(0, shift)];
        for (const setup of order) {
          const got = await runOn(setup, request, connections, options.durationSeconds);
          const key = `${request.id} ${setup.id}`;
          figures.set(key, [...(figures.get(key) ?? []), got]);
          log(
            `replicas round ${round}/${rounds}  ${request.label.padEnd(22)} ${replicaSetupLabels[setup.id].padEnd(26)} ${got.load.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${got.load.p99Ms.toFixed(2)} ms  CPU µs/req fake ${got.replicaCpuUs.toFixed(1)} redis ${Number.isNaN(got.redisCpuUs) ? '-' : got.redisCpuUs.toFixed(1)}`,
          );
        }
      }
    }
    const cells: Record<string, Record<ReplicaSetupId, ReplicaCell>> = {};
    for (const request of replicaRequests) {
      const row = {} as Record<ReplicaSetupId, ReplicaCell>;
      for (const setup of setups)
        row[setup.id] = cellOf(figures.get(`${request.id} ${setup.id}`) ?? [], sources);
      cells[request.id] = row;
    }
    const exactness = await measureExactness(setups[2] as Setup);
    const result: ReplicasResult = {
      requests: replicaRequests,
      setups: setups.map((setup) => setup.id),
      cells,
      sequentialRoundTrips,
      commandSources: Object.fromEntries(sources),
      exactness,
      rounds,
      seconds: options.durationSeconds,
      connections,
      loadBefore,
      loadAfter: loadAverage(),
    };
    log(
      `replicas exactness: ${exactness.connections} connections over two replicas sent ${exactness.sent} requests on one key of ${exactness.limitPerMinute}/min (clock frozen): ${exactness.admitted} admitted, statuses ${JSON.stringify(exactness.statuses)}`,
    );
    if (exactness.admitted !== exactness.limitPerMinute) {
      log(JSON.stringify(result.cells));
      throw new BenchError(
        `replicas: EXACTNESS FAILED: ${exactness.admitted} requests admitted on a key of ${exactness.limitPerMinute} a minute over two replicas (statuses ${JSON.stringify(exactness.statuses)})`,
      );
    }
    return result;
  } finally {
    for (const server of processes.reverse()) await server.stop();
    for (const redis of redises) {
      redis.client.destroy();
      await redis.server.remove();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
