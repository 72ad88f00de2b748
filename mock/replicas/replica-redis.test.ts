/**
 * The replica's client when Redis goes away, on a real redis-server killed and started again
 * (test/support/redis-server.ts): a decision fails within the command time-out instead of waiting
 * for Redis, and once Redis is back the client has reconnected by itself.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.ts';
import { redisQuotaLedger } from './redis-quota-ledger.ts';
import { type ReplicaRedis, replicaRedis } from './replica-redis.ts';

let server: RedisServer;
let redis: ReplicaRedis;
const errors: unknown[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  redis = replicaRedis(server.url).on('error', (error) => errors.push(error));
  await redis.connect();
}, 20_000);

afterAll(async () => {
  redis?.destroy();
  await server?.remove();
});

const limits = { perMinute: 5, perDay: 100 };
const policy = { threshold: 5, durationSeconds: 60 };
const now = Date.UTC(2026, 11, 2, 12, 0, 0);

test('with Redis killed a decision fails within 2 s, never later; once Redis is back the client reconnects and decides again', async () => {
  const ledger = redisQuotaLedger(redis, 'faults');
  expect((await ledger.decide('free-1', limits, now, policy)).verdict).toBe('admitted');
  await server.kill();
  const started = performance.now();
  await expect(ledger.decide('free-1', limits, now, policy)).rejects.toThrow();
  expect(performance.now() - started).toBeLessThan(2_500);
  // The client says why on its error events, which the caller listens to.
  expect(errors.length).toBeGreaterThan(0);
  await server.restart();
  for (let waited = 0; !redis.isReady; waited += 50) {
    if (waited > 10_000) throw new Error('the client did not reconnect in 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Without persistence Redis came back empty: the key's count starts again.
  expect(await ledger.decide('free-1', limits, now, policy)).toMatchObject({
    verdict: 'admitted',
    rateLimit: { remaining: 4 },
  });
}, 30_000);
