/**
 * The replica's client when Redis goes away, on a real redis-server killed and started again
 * (test/support/redis-server.ts): a decision fails within the command time-out instead of waiting
 * for Redis, and once Redis is back the client has reconnected by itself; a Redis that came back
 * empty holds no fleet's record, and the replica is told so rather than counting afresh.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RedisServer, startRedisServer } from '../../test/support/redis-server.ts';
import { joinFleet } from './fleet.ts';
import { FleetLostError } from './fleet-state.ts';
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

test('with Redis killed a decision fails within 2 s, never later; once Redis is back the client reconnects, and a Redis that came back empty is told from the fleet it held', async () => {
  const { epoch } = await joinFleet(redis, 'faults', { settings: {} });
  const ledger = redisQuotaLedger(redis, 'faults', { epoch, version: () => '0' });
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
  // Without persistence Redis came back empty: the fleet's record is gone with the counts, and
  // the replica is told so rather than counting afresh as a new fleet.
  await expect(ledger.decide('free-1', limits, now, policy)).rejects.toBeInstanceOf(FleetLostError);
}, 30_000);

test("a wrong password is refused in the client's errors, which never carry the URL's password in any form", async () => {
  // The one redaction: a URL's password appears in no output. node-redis's own errors
  // reach the replica's log, so they are read here as they come, from a Redis that wants one.
  const guarded = await startRedisServer({ password: 'right-Passw0rd-of-the-fleet' });
  const wrong = 'p@ss/w0rd!-sent-by-mistake';
  const seen: string[] = [];
  const client = replicaRedis(
    `redis://:${encodeURIComponent(wrong)}@127.0.0.1:${guarded.port}/0`,
  ).on('error', (error: Error) => seen.push(`${error.name}: ${error.message}\n${error.stack}`));
  try {
    // connect() does not settle here: node-redis retries a refused AUTH as it retries a lost
    // connection, reporting each try as an error event. A replica's start must give up on it.
    void client.connect().catch(() => {});
    for (let waited = 0; seen.length === 0; waited += 50) {
      if (waited > 5_000) throw new Error('no error event in 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.destroy();
    await guarded.remove();
  }
  const forms = [wrong, encodeURIComponent(wrong), Buffer.from(wrong).toString('base64')];
  for (const text of seen) for (const form of forms) expect(text).not.toContain(form);
  expect(seen.join('\n')).toMatch(/WRONGPASS/);
}, 30_000);
