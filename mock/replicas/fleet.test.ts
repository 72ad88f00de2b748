/**
 * The fleet's record on a real redis-server of the test's own: the first replica founds the
 * fleet and the next joins it; replicas starting at once found one fleet; a replica started with
 * other settings, another control token or none, or over a Redis holding something else under
 * the prefix, refuses in one line; and Redis never holds the control token, in any encoding.
 */
import { beforeAll, expect, test } from 'vitest';
import { replicaClients } from '../../test/support/replica-clients.ts';
import { ConfigError } from '../base/config-error.ts';
import { formsOf } from '../base/messages/secret-forms.ts';
import { type FleetSettings, finishFounding, fleetFormat, joinFleet } from './fleet.ts';
import { FleetLostError } from './fleet-state.ts';
import { fleetKey } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

const { clients } = replicaClients(8);
let redis: ReplicaRedis;
beforeAll(() => {
  redis = clients[0] as ReplicaRedis;
});

const settings: FleetSettings = {
  'ban-seconds': 300,
  'ban-threshold': 5,
  'max-pets': 10_000,
  plans: { free: { perMinute: 60, perDay: 1000 } },
};
const token = 'fleet-control-token-7f3a';

/** Founds the fleet `prefix` as a starting replica does: joined, then seeded (here: nothing). */
async function founded(prefix: string, options: Parameters<typeof joinFleet>[2]) {
  const fleet = await joinFleet(redis, prefix, options);
  if (fleet.founded) await finishFounding(redis, prefix, fleet.epoch);
  return fleet;
}

/** What a join threw: its message, which must be one line, and whether it is a ConfigError. */
async function refusal(join: Promise<unknown>): Promise<string> {
  const error = await join.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message).not.toContain('\n');
  return message;
}

test('the first replica founds the fleet and the next joins it, with the same epoch', async () => {
  const first = await founded('joins', { settings, controlToken: token });
  const second = await joinFleet(redis, 'joins', { settings, controlToken: token });
  expect(first.founded).toBe(true);
  expect(second).toEqual({ epoch: first.epoch, founded: false });
  expect(first.epoch).toMatch(/^[0-9a-f]{32}$/);
});

test('settings given in another order are the same settings', async () => {
  await founded('order', { settings });
  const reversed = Object.fromEntries(Object.entries(settings).reverse());
  expect((await joinFleet(redis, 'order', { settings: reversed })).founded).toBe(false);
});

test('replicas starting at once, each on its own connection, found one fleet', async () => {
  // Many fleets: a replica that finds no record, then finds the one another just wrote, must
  // join it (once its founder seeded it), however the eight interleave.
  for (let round = 0; round < 40; round++) {
    const prefix = `at-once-${round}`;
    const joined = await Promise.all(
      clients.map(async (client) => {
        const fleet = await joinFleet(client, prefix, { settings });
        if (fleet.founded) await finishFounding(client, prefix, fleet.epoch);
        return fleet;
      }),
    );
    expect(joined.filter((fleet) => fleet.founded)).toHaveLength(1);
    expect(new Set(joined.map((fleet) => fleet.epoch)).size).toBe(1);
  }
});

test('a replica starting while the founder has not seeded the fleet waits until it has, then joins it; a request finding it so is told the fleet is lost, and founds nothing', async () => {
  const first = await joinFleet(redis, 'seeding', { settings });
  expect(first.founded).toBe(true);
  let joined: Awaited<ReturnType<typeof joinFleet>> | undefined;
  const waiting = joinFleet(clients[1] as ReplicaRedis, 'seeding', { settings }).then((fleet) => {
    joined = fleet;
    return fleet;
  });
  await expect(
    joinFleet(clients[2] as ReplicaRedis, 'seeding', { settings, whileFounding: 'refuse' }),
  ).rejects.toBeInstanceOf(FleetLostError);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(joined).toBeUndefined();
  await finishFounding(redis, 'seeding', first.epoch);
  expect(await waiting).toEqual({ epoch: first.epoch, founded: false });
});

test('a founder that died before it seeded the fleet is overtaken once overdue: a starting replica founds the fleet anew, under a new epoch, and the old founder cannot open it', async () => {
  const dead = await joinFleet(redis, 'overdue', { settings });
  const started = Date.now();
  const next = await joinFleet(clients[1] as ReplicaRedis, 'overdue', {
    settings,
    foundingTimeoutMs: 400,
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  expect(next.founded).toBe(true);
  expect(next.epoch).not.toBe(dead.epoch);
  await finishFounding(redis, 'overdue', dead.epoch);
  // Still founding: the late founder's finish opened nothing.
  await expect(
    joinFleet(clients[2] as ReplicaRedis, 'overdue', { settings, whileFounding: 'refuse' }),
  ).rejects.toBeInstanceOf(FleetLostError);
  await finishFounding(redis, 'overdue', next.epoch);
  expect(await joinFleet(clients[2] as ReplicaRedis, 'overdue', { settings })).toEqual({
    epoch: next.epoch,
    founded: false,
  });
});

test('a replica with other settings refuses, naming each setting that differs', async () => {
  await founded('differ', { settings });
  const message = await refusal(
    joinFleet(redis, 'differ', {
      settings: { ...settings, 'ban-seconds': 60, 'max-pets': 5, 'list-order': 'oldest-first' },
    }),
  );
  expect(message).toBe(
    'petstore-fake: redis fleet under the Redis prefix "differ" was started with other ban-seconds, list-order, max-pets: start every replica with the same values',
  );
});

test('a replica with another control token, or none, or one where the fleet has none, refuses', async () => {
  await founded('token', { settings, controlToken: token });
  expect(await refusal(joinFleet(redis, 'token', { settings, controlToken: 'other' }))).toContain(
    'was started with another control token: give every replica the same PETSTORE_CONTROL_TOKEN',
  );
  expect(await refusal(joinFleet(redis, 'token', { settings }))).toContain(
    'was started with a control token',
  );
  await founded('no-token', { settings });
  expect(await refusal(joinFleet(redis, 'no-token', { settings, controlToken: token }))).toContain(
    'was started with no control token',
  );
});

test('Redis keeps only a hash of the control token: not the token in any encoding', async () => {
  await founded('secret', { settings, controlToken: token });
  const dump = JSON.stringify(await redis.hGetAll(fleetKey('secret')));
  expect(dump).toContain(fleetFormat);
  for (const form of formsOf(token, 8)) expect(dump).not.toContain(form);
});

test('a Redis holding another format under the prefix is refused, whatever it holds', async () => {
  await redis.set(fleetKey('string'), 'hello');
  expect(await refusal(joinFleet(redis, 'string', { settings }))).toBe(
    'petstore-fake: redis holds "a string" under the Redis prefix "string", where this fake keeps "petstore-fake replicas 1": start with another --redis-prefix',
  );
  await redis.hSet(fleetKey('older'), { format: 'petstore-fake replicas 0', epoch: 'e' });
  expect(await refusal(joinFleet(redis, 'older', { settings }))).toContain(
    'holds "petstore-fake replicas 0" under the Redis prefix "older"',
  );
  await redis.hSet(fleetKey('formatless'), { epoch: 'e' });
  expect(await refusal(joinFleet(redis, 'formatless', { settings }))).toContain(
    'holds a record without a format under the Redis prefix "formatless"',
  );
  await redis.set('{orphans}:store:next-id', '7');
  expect(await refusal(joinFleet(redis, 'orphans', { settings }))).toBe(
    'petstore-fake: redis holds keys under the Redis prefix "orphans" but no fleet\'s record (such as "{orphans}:store:next-id"): start with another --redis-prefix, or delete them',
  );
});
