/**
 * Replicas are processes: three Node processes, each with its own connection to one real
 * redis-server, send one key's decisions and their creates at the same moment (each waits on a
 * list of its own, which the test pushes to for all three in one transaction once all are
 * connected). The quota admits exactly the plan's limit over all three, each Remaining value
 * once; the ids are unique over all three, and increasing in the order each process was
 * answered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { beforeAll, expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { finishFounding, joinFleet } from './fleet.ts';
import { redisPetStore } from './redis-pet-store.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients, server } = replicaClients();
let redis: ReplicaRedis;
beforeAll(() => {
  redis = clients[0] as ReplicaRedis;
});

const replicasFolder = new URL('.', import.meta.url).href;
/** What each process runs once woken: 40 decisions, four at a time, and 40 creates at once. */
const replicaScript = `
const { replicaRedis } = await import('${replicasFolder}replica-redis.ts');
const { redisQuotaLedger } = await import('${replicasFolder}redis-quota-ledger.ts');
const { redisPetStore } = await import('${replicasFolder}redis-pet-store.ts');
const { joinFleet } = await import('${replicasFolder}fleet.ts');
const redis = replicaRedis(process.env.REDIS_URL);
redis.on('error', (error) => { console.error(String(error)); process.exit(1); });
await redis.connect();
const { epoch } = await joinFleet(redis, 'fleet', { settings: {} });
const ledger = redisQuotaLedger(redis, 'fleet', { epoch, version: () => '0' });
const store = redisPetStore(redis, 'fleet', { epoch, version: () => '0' });
console.log('ready');
// Woken with the others by one push each (BLPOP, a second at a time within the command time-out).
while ((await redis.blPop('go:' + process.env.REPLICA, 1)) === null);
const now = Number(process.env.NOW);
const limits = { perMinute: 100, perDay: 1000 };
const policy = { threshold: 1000, durationSeconds: 60 };
const created = [];
const decisions = [];
// Four at a time, one after another, so the three processes' decisions interleave in Redis.
const decide = async () => {
  for (let index = 0; index < 10; index++) decisions.push(await ledger.decide('free-1', limits, now, policy));
};
await Promise.all([
  Promise.all([decide(), decide(), decide(), decide()]),
  Promise.all(Array.from({ length: 40 }, async (_, index) => {
    const pet = await store.create({ name: 'pet ' + index, categoryId: 1, status: 'available' }, 1000);
    created.push(pet.id);
  })),
]);
console.log(JSON.stringify({ decisions, created }));
redis.destroy();
`;

/** Runs the script in a process of its own; resolves with its lines once it says it is ready. */
async function startReplica(
  replica: number,
  now: number,
): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', replicaScript], {
    env: { ...process.env, REDIS_URL: server().url, NOW: String(now), REPLICA: String(replica) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let text = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    text += chunk;
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    lines.push(...parts);
  });
  for (let waited = 0; !lines.includes('ready'); waited += 10) {
    if (waited > 15_000 || child.exitCode !== null) throw new Error('a replica did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, lines };
}

test('three processes sending one key at once admit exactly its limit, each Remaining once, and take unique ids, increasing in each', async () => {
  // The fleet founded, its store empty, as after a reset.
  const { epoch } = await joinFleet(redis, 'fleet', { settings: {} });
  await finishFounding(redis, 'fleet', epoch);
  await redisPetStore(redis, 'fleet', { epoch, version: () => '0' }).restore({
    pets: [],
    nextId: 1,
  });
  // The fleet's clock, pinned inside one minute window.
  const now = Date.UTC(2026, 11, 2, 12, 0, 30);
  const replicas = await Promise.all([1, 2, 3].map((replica) => startReplica(replica, now)));
  await redis.multi().lPush('go:1', 'go').lPush('go:2', 'go').lPush('go:3', 'go').exec();
  await Promise.all(replicas.map(({ child }) => once(child, 'exit')));
  const results = replicas.map(({ child, lines }) => {
    expect(child.exitCode).toBe(0);
    return JSON.parse(lines.at(-1) ?? '{}') as {
      decisions: { verdict: string; rateLimit: { remaining: number } }[];
      created: number[];
    };
  });
  const decisions = results.flatMap((result) => result.decisions);
  // The limit is past one process's 40: whatever order the scheduler runs them in, two or three
  // processes' decisions are admitted in one window, and one count holds for all of them.
  const admitted = decisions.filter((decision) => decision.verdict === 'admitted');
  expect(decisions).toHaveLength(120);
  expect(admitted.map((decision) => decision.rateLimit.remaining).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 100 }, (_, remaining) => remaining),
  );
  const ids = results.flatMap((result) => result.created);
  expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  for (const { created } of results) expect(created).toEqual([...created].sort((a, b) => a - b));
}, 60_000);
