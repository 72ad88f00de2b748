/**
 * `node bench/redis-script-costs.ts`: what each step a replica asks of Redis costs, on a
 * redis-server of its own (test/support/redis-server.ts): a quota decision, a create, a list of
 * 20 pets and a get, each 20,000 times 50 in flight on one connection, and a decision and a
 * create one at a time. Prints, for each, Redis's CPU a call (INFO cpu, user and system, over
 * the run), the command's own time a call (INFO commandstats, which counts a script's inner
 * commands in its time) and the client's CPU a call; one at a time, the round trip's p50 and p99.
 * A first look for the replicas' bench section, not a target.
 */

import { joinFleet } from '../mock/replicas/fleet.ts';
import { redisPetStore } from '../mock/replicas/redis-pet-store.ts';
import { redisQuotaLedger } from '../mock/replicas/redis-quota-ledger.ts';
import { replicaRedis } from '../mock/replicas/replica-redis.ts';
import { startRedisServer } from '../test/support/redis-server.ts';

const calls = 20_000;
const inFlight = 50;
const server = await startRedisServer();
const redis = replicaRedis(server.url).on('error', (error) => console.error(String(error)));
await redis.connect();
const { epoch } = await joinFleet(redis, 'bench', { settings: {} });
const ledger = redisQuotaLedger(redis, 'bench', { epoch, version: () => '0' });
const store = redisPetStore(redis, 'bench', { epoch, version: () => '0' });
await store.restore({ pets: [], nextId: 1 });
// Limits no run reaches: every decision is admitted, the common case.
const limits = { perMinute: 1e12, perDay: 1e12 };
const policy = { threshold: 5, durationSeconds: 300 };
const start = Date.UTC(2026, 0, 1);

const steps: Record<string, (index: number) => Promise<unknown>> = {
  decide: (index) => ledger.decide(`key-${index % 100}`, limits, start + index, policy),
  create: (index) =>
    store.create({ name: `pet ${index}`, categoryId: 3, status: 'available' }, 1e9),
  'list 20': () => store.list(20),
  get: (index) => store.get(1 + (index % 1_000)),
};

/** Redis's CPU so far, in µs (INFO cpu). */
async function redisCpuUs(): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1]);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

/** The µs a call of the command `name` took inside Redis (INFO commandstats). */
async function commandUs(name: string): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(
    new RegExp(`cmdstat_${name}:calls=\\d+,usec=\\d+,usec_per_call=([\\d.]+)`).exec(stats)?.[1],
  );
}

const rows: Record<string, Record<string, number>>[] = [];
for (const [name, step] of Object.entries(steps)) {
  for (let index = 0; index < 1_000; index++) await step(index);
  await redis.configResetStat();
  const [cpuBefore, clientBefore] = [await redisCpuUs(), process.cpuUsage()];
  for (let index = 0; index < calls; index += inFlight)
    await Promise.all(Array.from({ length: inFlight }, (_, offset) => step(index + offset)));
  const client = process.cpuUsage(clientBefore);
  const command = { decide: 'evalsha', create: 'evalsha', 'list 20': 'evalsha_ro', get: 'hget' }[
    name
  ];
  rows.push({
    [`${name}, ${inFlight} in flight`]: {
      'Redis CPU µs': ((await redisCpuUs()) - cpuBefore) / calls,
      'command µs': await commandUs(command ?? ''),
      'client CPU µs': (client.user + client.system) / calls,
    },
  });
}
for (const name of ['decide', 'create'] as const) {
  const times: number[] = [];
  for (let index = 0; index < calls / 4; index++) {
    const began = performance.now();
    await steps[name]?.(calls + index);
    times.push((performance.now() - began) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.floor(times.length * share)] ?? Number.NaN;
  rows.push({ [`${name}, one at a time`]: { 'p50 µs': at(0.5), 'p99 µs': at(0.99) } });
}
for (const row of rows)
  for (const [name, values] of Object.entries(row))
    console.log(
      `${name.padEnd(24)} ${Object.entries(values)
        .map(([label, value]) => `${label} ${value.toFixed(1)}`)
        .join('  ')}`,
    );
redis.destroy();
await server.remove();
