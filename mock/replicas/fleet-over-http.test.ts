/**
 * Replicas as a QA team runs them: `petstore-fake --redis` processes on one redis-server of the
 * test's own, each request sent to a replica named by the test (or through the round-robin
 * front), so that "the next request on another replica sees it" is what is checked.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import {
  cliPath,
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../test/support/fake-process.ts';
import { startRedisServer } from '../../test/support/redis-server.ts';
import { type ReplicaFleet, startReplicaFleet } from '../../test/support/replica-fleet.ts';
import { defaultSeed } from '../core/fake.ts';
import { replicaRedis } from './replica-redis.ts';

const fleets: ReplicaFleet[] = [];
afterEach(async () => {
  await Promise.all(fleets.splice(0).map((fleet) => fleet.close()));
  await stopFakeProcesses();
});

async function fleetOf(options: Parameters<typeof startReplicaFleet>[0] = {}) {
  const fleet = await startReplicaFleet(options);
  fleets.push(fleet);
  return fleet;
}

const json = { 'Content-Type': 'application/json' };
const as = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A request to one replica (its origin), answered as status, headers and JSON body. */
async function send(origin: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${origin}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** A control call on one replica. */
function control(origin: string, method: string, route: string, body?: unknown) {
  return send(origin, `/__control/${route}`, {
    method,
    headers: json,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A keys file with one key of `perMinute` requests a minute, written to a temporary folder. */
function smallKeysFile(perMinute: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-fleet-')), 'keys.json');
  writeFileSync(
    path,
    JSON.stringify({
      plans: { free: { perMinute: 60, perDay: 1000 }, small: { perMinute, perDay: 100_000 } },
      keys: [
        { id: 'small', key: 'small-window-key-0001', plan: 'small' },
        { id: 'other', key: 'other-window-key-0001', plan: 'free' },
      ],
    }),
  );
  return path;
}

test('a pet created on one replica is read on the next, and ids rise across replicas; a newest-first list shows every replica`s creates', async () => {
  const { origins } = await fleetOf();
  const ids: number[] = [];
  for (const [index, origin] of [...origins, ...origins].entries()) {
    const created = await send(origin, '/v1/pets', {
      method: 'POST',
      headers: { ...json, ...as('enterprise-demo-key') },
      body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1 }),
    });
    expect(created.status).toBe(201);
    const id = Number(created.body?.id);
    ids.push(id);
    const next = origins[(index + 1) % origins.length] as string;
    const read = await send(next, `/v1/pets/${id}`, { headers: as('enterprise-demo-key') });
    expect(read.body).toEqual(created.body);
  }
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  const list = await send(origins[2] as string, '/v1/pets?limit=6', {
    headers: as('enterprise-demo-key'),
  });
  expect((list.body as unknown as { id: number }[]).map((pet) => pet.id)).toEqual(
    [...ids].reverse(),
  );
}, 60_000);

/** Calls of each command so far, from the Redis at `url`'s own `INFO commandstats`. */
async function commandCalls(url: string): Promise<Map<string, number>> {
  const client = replicaRedis(url);
  await client.connect();
  try {
    const info = await client.info('commandstats');
    return new Map(
      [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+),/gm)].map((match) => [
        match[1] as string,
        Number(match[2]),
      ]),
    );
  } finally {
    client.destroy();
  }
}

test("a request is one script in Redis before its answer leaves (its decision and its store call), and its exchange one more after it: Redis's command statistics over creates, gets and lists on three replicas", async () => {
  const fleet = await fleetOf();
  const { origins } = fleet;
  const headers = as('enterprise-demo-key');
  const requests = (round: number) =>
    origins.flatMap((origin) => [
      () =>
        send(origin, '/v1/pets', {
          method: 'POST',
          headers: { ...json, ...headers },
          body: JSON.stringify({ name: `Counted ${round}`, categoryId: 1 }),
        }),
      () => send(origin, '/v1/pets/1', { headers }),
      () => send(origin, '/v1/pets?limit=5&status=available', { headers }),
    ]);
  // Every replica has sent each script once (node-redis sends a script's text on NOSCRIPT).
  for (const request of requests(0)) expect((await request()).status).toBeLessThan(300);
  const scripts = (calls: Map<string, number>) => calls.get('evalsha') ?? 0;
  const before = await commandCalls(fleet.redis.url);
  const made = requests(1).concat(requests(2));
  for (const request of made) expect((await request()).status).toBeLessThan(300);
  // The exchanges leave after the answers: wait until Redis has them all.
  let after = await commandCalls(fleet.redis.url);
  for (let tries = 0; tries < 50 && scripts(after) - scripts(before) < 2 * made.length; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    after = await commandCalls(fleet.redis.url);
  }
  const calls = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  expect(calls('evalsha')).toBe(2 * made.length);
  // No read of its own for the usage, the store or the fleet's record beside the script.
  for (const command of ['evalsha_ro', 'hgetall', 'eval', 'multi'])
    expect([command, calls(command)]).toEqual([command, 0]);
}, 60_000);

test('the clock, keys, a reset, a snapshot and a restore made through one replica are what the next replica answers with', async () => {
  const { origins } = await fleetOf();
  const [a, b, c] = origins as [string, string, string];
  // The clock: set and frozen on one, read on the others.
  await control(a, 'POST', 'clock', { set: '2030-01-01T00:00:00.000Z', freeze: true });
  for (const origin of [b, c])
    expect((await control(origin, 'GET', 'clock')).body).toMatchObject({
      now: '2030-01-01T00:00:00.000Z',
      frozen: true,
    });
  // A key added on one authenticates on the next; its plan changed on a third applies there.
  expect(
    (await control(b, 'POST', 'keys', { id: 'added', key: 'added-key-000000001', plan: 'free' }))
      .status,
  ).toBe(200);
  const first = await send(c, '/v1/pets?limit=1', { headers: as('added-key-000000001') });
  expect([first.status, first.headers.get('x-ratelimit-limit')]).toEqual([200, '60']);
  await control(a, 'PATCH', 'keys/added', { plan: 'pro' });
  const second = await send(b, '/v1/pets?limit=1', { headers: as('added-key-000000001') });
  expect([second.status, second.headers.get('x-ratelimit-limit')]).toEqual([200, '300']);
  // The usage both requests left is the fleet's, read through the third.
  const keys = (await control(c, 'GET', 'keys')).body as unknown as {
    id: string;
    usage: { minute: number };
  }[];
  expect(keys.find((key) => key.id === 'added')?.usage.minute).toBe(2);
  // A snapshot taken on one is restored through another, and read on the third.
  const snapshot = (await control(a, 'GET', 'snapshot')).body as { pets: unknown[] };
  expect((await control(b, 'POST', 'reset', { seed: 'empty' })).body).toMatchObject({ pets: 0 });
  const empty = await send(c, '/v1/pets', { headers: as('enterprise-demo-key') });
  expect(empty.body).toEqual([]);
  // The reset put the keys and the clock back too, on every replica.
  expect((await send(a, '/v1/pets', { headers: as('added-key-000000001') })).status).toBe(401);
  expect((await control(c, 'GET', 'clock')).body).toMatchObject({ frozen: false });
  await control(c, 'POST', 'restore', snapshot);
  expect((await control(a, 'GET', 'state')).body).toMatchObject({
    pets: snapshot.pets.length,
  });
}, 60_000);

test('90 requests of one key at once over three replicas admit exactly its 30 a minute, each Remaining value once; the rest are 429 with Retry-After', async () => {
  const { origins } = await fleetOf({ flags: ['--keys', smallKeysFile(30)] });
  await control(origins[0] as string, 'POST', 'clock', { freeze: true });
  const answers = await Promise.all(
    Array.from({ length: 90 }, (_, index) =>
      send(origins[index % 3] as string, '/v1/pets?limit=1', {
        headers: as('small-window-key-0001'),
      }),
    ),
  );
  const admitted = answers.filter((answer) => answer.status === 200);
  expect(admitted).toHaveLength(30);
  expect(
    admitted
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => x - y),
  ).toEqual(Array.from({ length: 30 }, (_, index) => index));
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(new Set(refused.map((answer) => answer.status))).toEqual(new Set([429]));
  for (const answer of refused) {
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
  }
}, 60_000);

test('a ban earned on one replica refuses the key on the others, and the other key is untouched', async () => {
  const { origins } = await fleetOf({
    flags: ['--keys', smallKeysFile(2), '--ban-threshold', '3', '--ban-seconds', '600'],
  });
  await control(origins[0] as string, 'POST', 'clock', { freeze: true });
  const statuses: number[] = [];
  const codes: unknown[] = [];
  // 2 admitted, then refusals during Retry-After, spread over the replicas, earn the ban.
  for (let index = 0; index < 6; index++) {
    const answer = await send(origins[index % 3] as string, '/v1/pets?limit=1', {
      headers: as('small-window-key-0001'),
    });
    statuses.push(answer.status);
    codes.push(answer.body?.code);
  }
  expect(statuses.slice(0, 2)).toEqual([200, 200]);
  expect(codes.slice(2)).toContain('temporarily_banned');
  for (const origin of origins) {
    const banned = await send(origin, '/v1/pets?limit=1', { headers: as('small-window-key-0001') });
    expect(banned.body?.code).toBe('temporarily_banned');
    const other = await send(origin, '/v1/pets?limit=1', { headers: as('other-window-key-0001') });
    expect(other.status).toBe(200);
  }
  const keys = (await control(origins[1] as string, 'GET', 'keys')).body as unknown as {
    id: string;
    bannedUntil: string | null;
  }[];
  expect(keys.find((key) => key.id === 'small')?.bannedUntil).not.toBeNull();
}, 60_000);

test("clearing the journal or the coverage through one replica clears the fleet's: the next replica's journal and coverage start from the clear", async () => {
  const { origins } = await fleetOf({ count: 2 });
  const [a, b] = origins as [string, string];
  for (const origin of [a, b, a])
    expect((await send(origin, '/v1/pets?limit=1', { headers: as('free-demo-key') })).status).toBe(
      200,
    );
  const total = async (origin: string) =>
    ((await control(origin, 'GET', 'requests')).body as { total: number }).total;
  const exchanges = async (origin: string) =>
    ((await control(origin, 'GET', 'coverage')).body as { summary: { exchanges: number } }).summary
      .exchanges;
  expect([await total(b), await exchanges(b)]).toEqual([3, 3]);
  expect((await control(a, 'DELETE', 'requests')).status).toBe(200);
  expect(await total(b)).toBe(0);
  expect(await exchanges(b)).toBe(3);
  expect((await control(b, 'DELETE', 'coverage')).status).toBe(200);
  expect(await exchanges(a)).toBe(0);
  expect((await send(b, '/v1/pets?limit=1', { headers: as('free-demo-key') })).status).toBe(200);
  expect([await total(a), await exchanges(a)]).toEqual([1, 1]);
}, 60_000);

test('a replica given the defaults spelled out (the keys file, the seed, the ban) is the same fake, and joins a fleet started without them', async () => {
  const fleet = await fleetOf({ count: 1 });
  const port = await freePort();
  await startFakeProcess([
    '--redis',
    fleet.redis.url,
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--keys',
    'fixtures/keys.json',
    '--seed',
    'fixtures/pets.json',
    '--ban-seconds',
    '300',
    '--ban-threshold',
    '5',
  ]);
  const listed = await send(`http://127.0.0.1:${port}`, '/v1/pets?limit=1', {
    headers: as('free-demo-key'),
  });
  expect(listed.status).toBe(200);
}, 60_000);

test('a replica started with other settings, --state-file, a password on the command line, or no reachable Redis refuses in one line', async () => {
  const fleet = await fleetOf({ count: 1, flags: ['--ban-seconds', '300'] });
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [cliPath, ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 20_000,
    });
  const other = run(['--redis', fleet.redis.url, '--port', '0', '--ban-seconds', '60']);
  expect(other.status).toBe(2);
  expect(other.stderr.split('\n')[0]).toMatch(
    /^petstore-fake: redis fleet under the Redis prefix "petstore" was started with other ban\.durationSeconds: start every replica with the same values$/,
  );
  const stateFile = run([
    '--redis',
    fleet.redis.url,
    '--state-file',
    join(mkdtempSync(join(tmpdir(), 'petstore-fleet-')), 's.json'),
  ]);
  expect(stateFile.status).toBe(2);
  expect(stateFile.stderr.split('\n')[0]).toBe(
    'petstore-fake: --state-file cannot be given with --redis: the fleet keeps its state in Redis (docs/replicas.md)',
  );
  const password = run(['--redis', 'redis://user:hunter2-secret@127.0.0.1:1']);
  expect(password.status).toBe(2);
  expect(password.stderr).not.toContain('hunter2');
  expect(password.stderr.split('\n')[0]).toContain('must not carry a password');
  // A Redis that is gone: stopped, its port free.
  const gone = await startRedisServer();
  await gone.remove();
  const started = performance.now();
  const unreachable = run(['--redis', gone.url, '--port', '0']);
  expect(unreachable.status).toBe(2);
  expect(performance.now() - started).toBeLessThan(10_000);
  expect(unreachable.stderr).toContain(`petstore-fake: redis cannot reach ${gone.url}`);
}, 60_000);

test('with Redis stopped a replica answers 503 store_unavailable within a few seconds, with Retry-After and X-RateLimit-*, and serves again by itself once Redis is back with its data', async () => {
  const fleet = await fleetOf({ count: 2, redis: { appendOnly: 'always' } });
  const [a, b] = fleet.origins as [string, string];
  const created = await send(a, '/v1/pets', {
    method: 'POST',
    headers: { ...json, ...as('free-demo-key') },
    body: JSON.stringify({ name: 'Kept', categoryId: 2 }),
  });
  expect(created.status).toBe(201);
  await fleet.redis.stop();
  const started = performance.now();
  const down = await send(b, '/v1/pets', { headers: as('free-demo-key') });
  expect(performance.now() - started).toBeLessThan(3_000);
  expect(down.status).toBe(503);
  expect(down.body).toMatchObject({ code: 'store_unavailable', status: 503 });
  expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(down.headers.get('x-ratelimit-limit')).toBe('60');
  expect(down.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(down.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
  // A create is refused too, and never a 201 from what the replica alone holds.
  const refused = await send(a, '/v1/pets', {
    method: 'POST',
    headers: { ...json, ...as('free-demo-key') },
    body: JSON.stringify({ name: 'Lost', categoryId: 2 }),
  });
  expect(refused.status).toBe(503);
  await fleet.redis.restart();
  let again = await send(b, `/v1/pets/${String(created.body?.id)}`, {
    headers: as('free-demo-key'),
  });
  for (let waited = 0; again.status === 503 && waited < 15_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    again = await send(b, `/v1/pets/${String(created.body?.id)}`, { headers: as('free-demo-key') });
  }
  expect(again.body).toEqual(created.body);
  for (const replica of fleet.replicas) expect(replica.child.exitCode).toBeNull();
}, 60_000);

test('Redis coming back empty never re-seeds the fleet by itself: every replica answers 503 until a control reset starts it again from the seed', async () => {
  const fleet = await fleetOf({ count: 2 });
  const [a, b] = fleet.origins as [string, string];
  const created = await send(a, '/v1/pets', {
    method: 'POST',
    headers: { ...json, ...as('free-demo-key') },
    body: JSON.stringify({ name: 'Gone', categoryId: 2 }),
  });
  expect(created.status).toBe(201);
  // No persistence: the restart is a Redis that lost everything.
  await fleet.redis.stop();
  await fleet.redis.restart();
  // While the client reconnects the 503 says Redis did not answer; then that the fleet is gone.
  const lost = async (origin: string) => {
    let answer = await send(origin, '/v1/pets', { headers: as('free-demo-key') });
    const told = () => String(answer.body?.message).includes('POST /__control/reset');
    for (let waited = 0; !told() && waited < 10_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await send(origin, '/v1/pets', { headers: as('free-demo-key') });
    }
    return answer;
  };
  for (const origin of [a, b]) {
    const answer = await lost(origin);
    expect(answer.status).toBe(503);
    expect(String(answer.body?.message)).toContain('POST /__control/reset');
  }
  const restarted = await control(b, 'POST', 'reset');
  expect(restarted.body).toMatchObject({ pets: defaultSeed.length });
  for (const origin of [a, b]) {
    const list = await send(origin, '/v1/pets?limit=100', { headers: as('free-demo-key') });
    expect(list.status).toBe(200);
    expect((list.body as unknown as { name: string }[]).map((pet) => pet.name)).not.toContain(
      'Gone',
    );
    expect((list.body as unknown as unknown[]).length).toBeGreaterThan(0);
  }
}, 60_000);

test('a replica killed mid-traffic loses no acknowledged create and no id is used twice', async () => {
  const fleet = await fleetOf({ count: 2 });
  const [a, b] = fleet.origins as [string, string];
  const acknowledged: Record<string, unknown>[] = [];
  const sendCreates = async (origin: string, count: number) => {
    for (let index = 0; index < count; index++) {
      try {
        const created = await send(origin, '/v1/pets', {
          method: 'POST',
          headers: { ...json, ...as('enterprise-demo-key') },
          body: JSON.stringify({ name: `Load ${origin.slice(-5)} ${index}`, categoryId: 3 }),
        });
        if (created.status === 201 && created.body !== undefined) acknowledged.push(created.body);
      } catch {
        // The killed replica's connection dropped: no answer, so nothing was acknowledged.
      }
    }
  };
  const traffic = Promise.all([sendCreates(a, 200), sendCreates(b, 200)]);
  await new Promise((resolve) => setTimeout(resolve, 150));
  fleet.replicas[0]?.child.kill('SIGKILL');
  await traffic;
  expect(acknowledged.length).toBeGreaterThan(200);
  const ids = acknowledged.map((pet) => Number(pet.id));
  expect(new Set(ids).size).toBe(ids.length);
  for (const pet of acknowledged) {
    const read = await send(b, `/v1/pets/${String(pet.id)}`, {
      headers: as('enterprise-demo-key'),
    });
    expect(read.body).toEqual(pet);
  }
  // A replica started again joins the same fleet and takes the next id.
  const port = new URL(a).port;
  await startFakeProcess(['--redis', fleet.redis.url, '--port', port, '--no-staging', '--quiet']);
  const next = await send(a, '/v1/pets', {
    method: 'POST',
    headers: { ...json, ...as('enterprise-demo-key') },
    body: JSON.stringify({ name: 'After', categoryId: 3 }),
  });
  expect(Number(next.body?.id)).toBeGreaterThan(Math.max(...ids));
}, 60_000);

/**
 * A fleet of one replica (`a`) and a second (`b`, its process `writer`) that writes its coverage
 * report when it stops: `reported` reads how many exchanges the report counts.
 */
async function fleetWithCoverageWriter() {
  const fleet = await fleetOf({ count: 1 });
  const [a] = fleet.origins as [string];
  const report = join(mkdtempSync(join(tmpdir(), 'petstore-fleet-')), 'coverage.json');
  const port = await freePort();
  const writer = await startFakeProcess([
    '--redis',
    fleet.redis.url,
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--coverage-report',
    report,
  ]);
  const reported = () =>
    (JSON.parse(readFileSync(report, 'utf8')) as { summary: { exchanges: number } }).summary
      .exchanges;
  return { fleet, a, b: `http://127.0.0.1:${port}`, writer, reported };
}

test("a replica stopped with SIGTERM writes the fleet's record: its coverage report counts what every replica answered", async () => {
  const { a, b, writer, reported } = await fleetWithCoverageWriter();
  for (const origin of [a, a, a, b, b]) {
    const answer = await send(origin, '/v1/pets?limit=1', { headers: as('free-demo-key') });
    expect(answer.status).toBe(200);
  }
  writer.child.kill('SIGTERM');
  await once(writer.child, 'exit');
  expect(reported()).toBe(5);
}, 60_000);

test("a replica reads the fleet's exchanges every second, not only when asked: with Redis killed before its SIGTERM, its coverage report still counts what every replica answered", async () => {
  const { fleet, a, b, writer, reported } = await fleetWithCoverageWriter();
  for (const origin of [a, a, a, b, b, a]) {
    const answer = await send(origin, '/v1/pets?limit=1', { headers: as('free-demo-key') });
    expect(answer.status).toBe(200);
  }
  // Past one reading, and no control call: only the replica's own reading took them.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  await fleet.redis.kill();
  writer.child.kill('SIGTERM');
  const [code] = await once(writer.child, 'exit');
  expect(code).toBe(0);
  expect(reported()).toBe(6);
}, 60_000);

test('a forced answer set through one replica is spent once across the fleet: 5 forced in 15 creates at once over three replicas, the rest created', async () => {
  const { origins } = await fleetOf();
  const forced = await control(origins[0] as string, 'POST', 'force', {
    operationId: 'createPet',
    status: 503,
    count: 5,
  });
  expect(forced.status).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: 15 }, (_, index) =>
      send(origins[index % 3] as string, '/v1/pets', {
        method: 'POST',
        headers: { ...json, ...as('enterprise-demo-key') },
        body: JSON.stringify({ name: `Forced ${index}`, categoryId: 1 }),
      }),
    ),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([...Array(10).fill(201), ...Array(5).fill(503)]);
  expect(answers.filter((answer) => answer.status === 503).map((a) => a.body?.code)).toEqual(
    Array(5).fill('service_unavailable'),
  );
  // Spent on every replica: none is left to read.
  for (const origin of origins) expect((await control(origin, 'GET', 'force')).body).toEqual({});
}, 60_000);

test("chaos set through one replica spoils the fleet's answers from one seed: the same requests get the same answers wherever they land", async () => {
  const run = async (shift: number) => {
    const { origins } = await fleetOf();
    await control(origins[1] as string, 'POST', 'chaos', {
      seed: 42,
      rules: [{ operationId: 'listPets', errors: { '503': 0.5 } }],
    });
    const statuses: number[] = [];
    for (let index = 0; index < 24; index++) {
      const answer = await send(origins[(index + shift) % 3] as string, '/v1/pets?limit=1', {
        headers: as('enterprise-demo-key'),
      });
      statuses.push(answer.status);
    }
    expect((await control(origins[2] as string, 'GET', 'chaos')).body).toMatchObject({ seed: 42 });
    return statuses;
  };
  const first = await run(0);
  expect(new Set(first)).toEqual(new Set([200, 503]));
  // Another fleet, each request sent to another replica than before: the same draws.
  expect(await run(1)).toEqual(first);
}, 90_000);
