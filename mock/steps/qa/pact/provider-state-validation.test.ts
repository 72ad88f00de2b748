/**
 * Provider states and restores are checked whole before anything changes, over HTTP as a Pact
 * verifier sends them (`POST /__control/provider-states`): a plan must be one of the plan
 * table's own names (`__proto__`, `constructor` or `toString`, looked up naively, would add a key
 * that is never limited: `X-RateLimit-Limit: undefined`), an id must be one the store can hold
 * (2^53 - 1 at most, served like any other, never a 500), and every parameter the state's name
 * implies must be there and agree (a "no pets with status sold" without its status would empty
 * the store). And a restore of pets whose ids are far apart, through `npm start`, keeps memory
 * proportional to the pets, not to the id range (a dense index of ids 1,024 apart would hold a
 * thousand slots a pet).
 */
import { readFileSync } from 'node:fs';
import { afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../../test/support/fake-process.ts';
import { createFake, type Fake } from '../../../core/fake.ts';
import { listenHttp } from '../../../doors/http/http-server.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await stopFakeProcesses();
});

async function served(): Promise<{ fake: Fake; base: string }> {
  const fake = await createFake();
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  return { fake, base: `http://127.0.0.1:${(door.server.address() as { port: number }).port}` };
}

async function state(base: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const answer = await fetch(`${base}/__control/provider-states`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, json: await answer.json() };
}

test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'gold'])(
  'a plan named %s is no plan: 400 with an Error, and no key is added',
  async (plan) => {
    const { fake, base } = await served();
    const keysBefore = fake.control.keys().length;
    for (const body of [
      { state: `a key on the ${plan} plan`, params: { plan } },
      { state: `a key on the ${plan} plan` },
      { state: "the key's window is spent", params: { plan } },
      { state: 'the key is banned', params: { plan } },
    ]) {
      const answer = await state(base, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toMatchObject({ code: 'invalid_control_request', status: 400 });
      expect((answer.json as { message: string }).message).toContain(
        'params.plan must be one of free, pro, business, enterprise',
      );
    }
    expect(fake.control.keys()).toHaveLength(keysBefore);
  },
);

test('a pet id is one the store can hold: 2^53 - 1 is set up and served, 2^53 and 0 are 400', async () => {
  const { base } = await served();
  const last = 9007199254740991;
  const exists = await state(base, {
    state: `pet ${last} exists`,
    params: { id: last, name: 'Last', categoryId: 1, status: 'sold' },
  });
  expect(exists).toEqual({ status: 200, json: { petId: last } });
  const key = await state(base, { state: 'a key on the free plan', params: { plan: 'free' } });
  const headers = { Authorization: `Bearer ${(key.json as { apiKey: string }).apiKey}` };
  const got = await fetch(`${base}/v1/pets/${last}`, { headers });
  expect(got.status).toBe(200);
  expect(await got.json()).toEqual({ id: last, name: 'Last', categoryId: 1, status: 'sold' });
  // Every id up to 2^53 - 1 is now behind the counter: a create says the store is full.
  const created = await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: '{"name":"Next","categoryId":1}',
  });
  expect(created.status).toBe(507);
  for (const id of ['9007199254740992', '0', '99999999999999999999']) {
    const refused = await state(base, { state: `pet ${id} exists`, params: { id: Number(id) } });
    expect(refused.status, id).toBe(400);
    expect((refused.json as { message: string }).message).toContain(
      "the state's pet id must be an integer from 1 to 9007199254740991",
    );
  }
});

test('a state without the parameter its name implies, or with another, is 400 and changes nothing', async () => {
  const { fake, base } = await served();
  const pets = fake.control.describe().pets as number;
  for (const body of [
    { state: 'no pets with status sold' },
    { state: 'no pets with status sold', params: { status: 'pending' } },
    { state: 'no pets with status lost', params: { status: 'lost' } },
    { state: 'no pets', params: { status: 'sold' } },
    { state: 'a pet with status sold exists' },
    { state: 'pet 5 does not exist' },
    { state: 'pet 5 does not exist', params: { id: 6 } },
    { state: 'pet 5 exists', params: { id: 5, name: 7 } },
    { state: 'pet 5 exists', params: { id: 5, status: 'lost' } },
    { state: "the key's window is spent" },
  ]) {
    const answer = await state(base, body);
    expect(answer.status, JSON.stringify(body)).toBe(400);
    expect(answer.json).toMatchObject({ code: 'invalid_control_request' });
    expect(fake.control.describe().pets, JSON.stringify(body)).toBe(pets);
  }
  expect(fake.control.snapshot().pets.some((pet) => pet.id === 5)).toBe(true);
  // The same states with their parameters do what they say.
  expect((await state(base, { state: 'pet 5 does not exist', params: { id: 5 } })).status).toBe(
    200,
  );
  expect(fake.control.describe().pets).toBe(pets - 1);
  const soldBefore = fake.control.snapshot().pets.filter((pet) => pet.status === 'sold').length;
  expect(soldBefore).toBeGreaterThan(0);
  const noSold = await state(base, {
    state: 'no pets with status sold',
    params: { status: 'sold' },
  });
  expect(noSold.status).toBe(200);
  expect(fake.control.describe().pets).toBe(pets - 1 - soldBefore);
});

test('a restore of ids 1,024 apart keeps memory proportional to the pets, not to the id range', async () => {
  const port = await freePort();
  const { child } = await startFakeProcess(['--port', String(port), '--no-staging', '--quiet']);
  const rss = () =>
    Number(
      /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0,
    ) / 1024;
  const before = rss();
  // About 790 KiB of body: 15,000 pets, each id 1,024 past the last.
  const pets = Array.from({ length: 15_000 }, (_, index) => ({
    id: 1 + index * 1024,
    name: `p${index}`,
    categoryId: 1,
    status: 'sold',
  }));
  const body = JSON.stringify({ pets, nextId: 1 });
  expect(body.length).toBeLessThan(1024 * 1024);
  const answer = await fetch(`http://127.0.0.1:${port}/__control/restore`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  expect(answer.status).toBe(200);
  const last = await fetch(`http://127.0.0.1:${port}/v1/pets/${1 + 14_999 * 1024}`, {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  expect(last.status).toBe(200);
  // A dense index of that range is 15 million slots (120 MiB and more); the pets are 15,000.
  expect(rss() - before).toBeLessThan(80);
});

test('a pet state meets the rules a create meets: a blank name, a missing categoryId, a bad field or an unknown one is a 400 naming it, and nothing is stored', async () => {
  const { fake, base } = await served();
  const before = fake.control.snapshot();
  for (const [params, named] of [
    [{ id: 4242, name: '   ', categoryId: 1 }, 'name must not be blank'],
    [{ id: 4242, name: '' }, 'categoryId'],
    [{ id: 4242, name: 'Rex' }, 'categoryId'],
    [{ id: 4242, categoryId: 2 }, 'name'],
    [{ id: 4242, name: 'Rex', categoryId: 'three' }, 'categoryId'],
    [
      { id: 4242, name: 'x'.repeat(fake.config.maxNameLength + 1), categoryId: 1 },
      'name must be at most',
    ],
    [{ id: 4242, name: 'Rex', categoryId: 1, colour: 'brown' }, '"colour"'],
  ] as const) {
    const answer = await state(base, { state: 'pet 4242 exists', params });
    expect(answer.status, JSON.stringify(params)).toBe(400);
    expect(answer.json).toMatchObject({ code: 'invalid_control_request', status: 400 });
    const { message } = answer.json as { message: string };
    expect(message, JSON.stringify(params)).toContain('params must be a pet a create would store');
    expect(message, JSON.stringify(params)).toContain(named);
  }
  expect(fake.control.snapshot()).toEqual(before);
  // The same state with a pet a create would store, or with no field at all, is set up.
  for (const params of [{ id: 4242, name: 'Rex', categoryId: 3, status: 'sold' }, { id: 4243 }]) {
    const answer = await state(base, { state: `pet ${params.id} exists`, params });
    expect(answer.status, JSON.stringify(params)).toBe(200);
  }
  const stored = fake.control.snapshot().pets.filter((pet) => Number(pet.id) >= 4242);
  expect(stored).toEqual([
    { id: 4242, name: 'Rex', categoryId: 3, status: 'sold' },
    { id: 4243, name: 'Rex', categoryId: 1, status: 'available' },
  ]);
});
