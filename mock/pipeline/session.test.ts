import { expect, it } from 'vitest';
import { type CreateFakeOptions, createFake } from '../core/fake.ts';
import type { StorePersistence } from './persistence.ts';
import { type SessionState, SessionStateError } from './session.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };

/** A persistence that keeps the session in a variable: what a door that keeps state does. */
function keptIn(saved?: unknown) {
  let read: (() => unknown) | undefined;
  const persistence: StorePersistence = {
    load: () => undefined,
    appendCreated: () => {},
    replaceAll: () => {},
    session: {
      load: () => saved,
      attach: (reader) => {
        read = reader;
      },
    },
  };
  return { persistence, read: () => read?.() as SessionState };
}

async function fakeWith(saved?: unknown, options: CreateFakeOptions = {}) {
  const kept = keptIn(saved);
  const fake = await createFake({ ...options, persistence: kept.persistence });
  return { fake, read: kept.read };
}

it('a saved session comes back whole: clock, keys, windows and ban, forced answers, coverage and the Pact recording', async () => {
  const { fake, read } = await fakeWith(undefined, { ban: { threshold: 1, durationSeconds: 90 } });
  fake.control.freezeTime(true);
  fake.control.setTime(Date.UTC(2030, 0, 1, 12));
  fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 50 } });
  fake.control.addKey({ id: 'extra', key: 'an-extra-key-of-ours', plan: 'pro' });
  fake.control.force('getPet', 503, 2, null);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++)
    statuses.push((await fake.fetch(`${api}/pets?limit=1`, { headers: free })).status);
  expect(statuses).toEqual([200, 429, 429, 429]);

  const { fake: again } = await fakeWith(structuredClone(read()));
  expect(again.control.now()).toBe(Date.UTC(2030, 0, 1, 12));
  expect(again.control.keys()).toEqual(fake.control.keys());
  expect(again.control.describe().forced).toEqual(fake.control.describe().forced);
  expect(again.control.coverage().items).toEqual(fake.control.coverage().items);
  expect(again.control.pact().interactions).toEqual(fake.control.pact().interactions);
  const banned = await again.fetch(`${api}/pets?limit=1`, { headers: free });
  expect(((await banned.json()) as { code: string }).code).toBe('temporarily_banned');
});

it('a session refused in any part is refused whole, naming the part', async () => {
  const { fake, read } = await fakeWith();
  await fake.fetch(`${api}/pets`, { headers: free });
  const saved = read();
  const pact = { ...(saved.policies.pact as object), interactions: [['x', 1]] };
  const broken = { ...saved, policies: { ...saved.policies, pact } };
  await expect(fakeWith(broken)).rejects.toThrow(SessionStateError);
  await expect(fakeWith(broken)).rejects.toThrow(/part "pact" has an interaction/);
  const badUsage = { ...saved, usage: { 'demo-free': { minute: { start: -1, count: 0 } } } };
  await expect(fakeWith(badUsage)).rejects.toThrow(/usage of "demo-free"/);
  await expect(fakeWith({ ...saved, format: 2 })).rejects.toThrow(/is not of format 1/);
  // The keys are read by the keys file's own check: one secret for two ids is refused there too.
  const [first] = saved.keys;
  const twins = { ...saved, keys: saved.keys.map((key) => ({ ...key, key: first?.key })) };
  await expect(fakeWith(twins)).rejects.toThrow(
    /saved session keys\[1\]\.key is the same secret as an earlier key/,
  );
});

it('a recording that did not change is saved again as the same object, so a door need not write it again', async () => {
  const { fake, read } = await fakeWith();
  await fake.fetch(`${api}/pets`, { headers: free });
  const first = read();
  const second = read();
  expect(second.policies.pact).toBe(first.policies.pact);
  await fake.fetch(`${api}/pets`, { method: 'POST', headers: free, body: '{}' });
  expect(read().policies.pact).not.toBe(first.policies.pact);
});
