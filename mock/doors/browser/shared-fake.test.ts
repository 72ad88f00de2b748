/**
 * The shared browser fake's protocol in Node, which has Web Locks and BroadcastChannel as
 * browsers do (each "tab" here is one createBrowserFake with its own channel), over
 * fake-indexeddb's IndexedDB. The same behaviour in real Chromium tabs: shared-tabs-browser.test.ts.
 */
import 'fake-indexeddb/auto';
import { afterEach, expect, it, vi } from 'vitest';
import { type BrowserFake, createBrowserFake } from './browser-fake.ts';
import type { TabMessage } from './tab-messages.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };
const json = { ...free, 'Content-Type': 'application/json' };

let names = 0;
const open: BrowserFake[] = [];

/** A fresh name per test, so tests never share a lock, a channel or a database. */
function freshName(): string {
  names += 1;
  return `shared-fake-test-${process.pid}-${names}`;
}

async function tab(name: string, options: Parameters<typeof createBrowserFake>[0] = {}) {
  const fake = await createBrowserFake({ seed: 'empty', ...options, shared: name });
  open.push(fake);
  return fake;
}

/** Waits until `fake` runs the shared fake (it got the lock and loaded what was kept). */
async function leading(fake: BrowserFake): Promise<void> {
  await vi.waitUntil(() => fake.status().runsHere, { timeout: 5_000, interval: 5 });
}

async function create(fake: BrowserFake, name: string) {
  const response = await fake.fetch(`${api}/pets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  return { status: response.status, body: (await response.json()) as { id: number } };
}

async function list(fake: BrowserFake) {
  const response = await fake.fetch(`${api}/pets?limit=100`, { headers: free });
  const body: unknown = await response.json();
  return {
    status: response.status,
    remaining: response.headers.get('X-RateLimit-Remaining'),
    names: Array.isArray(body) ? body.map((pet: { name: string }) => pet.name) : [],
  };
}

afterEach(async () => {
  for (const fake of open.splice(0)) await fake.stop();
  vi.restoreAllMocks();
});

it('two tabs meet one fake: a pet created in one is listed in the other, and the minute falls across both', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  expect(b.status().runsHere).toBe(false);
  await b.control.freezeTime(true);
  expect((await create(b, 'From B')).status).toBe(201);
  const fromA = await list(a);
  const fromB = await list(b);
  expect(fromA.names).toContain('From B');
  expect([fromA.remaining, fromB.remaining]).toEqual(['58', '57']);
});

it('pets created at once from two tabs get distinct ids and none is lost', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  const made = await Promise.all(
    Array.from({ length: 20 }, (_, i) => create(i % 2 === 0 ? a : b, `Twin ${i}`)),
  );
  expect(made.map((result) => result.status)).toEqual(made.map(() => 201));
  expect(new Set(made.map((result) => result.body.id)).size).toBe(20);
  const listed = (await list(b)).names.filter((pet) => pet.startsWith('Twin '));
  expect(listed.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `Twin ${i}`).sort());
});

it('when the leading tab leaves, the next tab leads with everything it wrote: pets, windows, ban, clock, forced answers', async () => {
  const name = freshName();
  const a = await tab(name, { ban: { threshold: 2, durationSeconds: 600 } });
  await leading(a);
  const b = await tab(name);
  await a.control.freezeTime(true);
  const frozenAt = await a.control.now();
  await a.control.updateKey('demo-free', { limits: { perMinute: 3, perDay: 100 } });
  await create(a, 'Kept');
  await list(b); // 1 left in the minute
  await list(b); // the minute is spent
  // Three 429s; the second and third came before Retry-After, and the second early one bans.
  for (let i = 0; i < 3; i++) expect((await list(b)).status).toBe(429);
  await a.control.force('getPet', 503, 2);
  await a.stop();
  await leading(b);
  expect(await b.control.now()).toBe(frozenAt);
  const key = (await b.control.keys()).find((entry) => entry.id === 'demo-free');
  expect(key).toMatchObject({ limits: { perMinute: 3 }, usage: { minute: 3 } });
  expect(key?.bannedUntil).toBe(new Date(frozenAt + 600_000).toISOString());
  expect((await b.control.describe()).forced).toMatchObject({ getPet: { remaining: 2 } });
  await b.control.advanceTime(601);
  expect((await list(b)).names).toContain('Kept');
});

it('interface coverage and the Pact recording go on in the tab that takes over, and are kept across a reload', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  await create(b, 'Recorded');
  await list(a);
  await a.fetch(`${api}/pets`); // 401: no key
  const exercised = async (fake: BrowserFake) =>
    (await fake.control.coverage()).items
      .filter((item) => item.status === 'exercised')
      .map((item) => `${item.id} ${item.count}`);
  const interactions = async (fake: BrowserFake) =>
    (await fake.control.pact()).interactions.map((interaction) => interaction.description).sort();
  const coverageBefore = await exercised(a);
  const pactBefore = await interactions(a);
  expect(pactBefore).toHaveLength(3);
  await a.stop();
  await leading(b);
  expect(await exercised(b)).toEqual(coverageBefore);
  expect(await interactions(b)).toEqual(pactBefore);
  await list(b);
  await b.stop();
  const again = await tab(name);
  await leading(again);
  // The list made after the first tab left is counted with the one made before.
  expect(await exercised(again)).toContain('listPets 200 2');
  expect(await interactions(again)).toEqual(pactBefore);
});

it('a call sent again after it was answered gets the written reply and is not run twice, by this leader or the next', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const raw = new BroadcastChannel(name);
  const replies: TabMessage[] = [];
  raw.onmessage = (event: MessageEvent<TabMessage>) => {
    if (event.data.type === 'reply') replies.push(event.data);
  };
  const leader = await leaderId(raw);
  const call: TabMessage = {
    type: 'call',
    to: leader,
    from: 'raw-tab',
    id: 'raw-tab:1',
    call: {
      kind: 'request',
      request: {
        method: 'POST',
        url: `${api}/pets`,
        headers: Object.entries(json),
        body: new TextEncoder().encode('{"name":"Once","categoryId":2}'),
      },
    },
  };
  raw.postMessage(call);
  await vi.waitUntil(() => replies.length === 1);
  raw.postMessage(call);
  await vi.waitUntil(() => replies.length === 2);
  const b = await tab(name);
  await a.stop();
  await leading(b);
  raw.postMessage({ ...call, to: await leaderId(raw) });
  await vi.waitUntil(() => replies.length === 3);
  raw.close();
  const bodies = replies.map((reply) => reply.type === 'reply' && reply.reply);
  expect(bodies[1]).toEqual(bodies[0]);
  expect(bodies[2]).toEqual(bodies[0]);
  expect((await list(b)).names.filter((pet) => pet === 'Once')).toHaveLength(1);
});

it("a create whose answer chaos latency holds is written with its reply, never before it by another call's write", async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  await a.control.setChaos({
    seed: 3,
    rules: [
      // Held far longer than the checks below take, even on a machine under load.
      { operationId: 'createPet', latency: { distribution: 'uniform', minMs: 2000, maxMs: 2000 } },
    ],
  });
  const held = create(b, 'Held');
  // Another call's write while the create's answer is held: the store has the pet, the database not yet.
  await vi.waitUntil(async () => (await list(a)).names.includes('Held'), {
    timeout: 1500,
    interval: 10,
  });
  const before = await kept(name);
  expect(before.pets).not.toContain('Held');
  expect(before.replies).toBe(0);
  expect((await held).status).toBe(201);
  const after = await kept(name);
  expect(after.pets).toContain('Held');
  expect(after.replies).toBe(1);
});

it('a create sent twice under one Idempotency-Key, from any tab, runs once and gets one reply', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  const send = (fake: BrowserFake) =>
    fake.fetch(`${api}/pets`, {
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': 'one-nemo' },
      body: JSON.stringify({ name: 'Nemo', categoryId: 1 }),
    });
  const answers = await Promise.all([send(b), send(b), send(a)]);
  const bodies = await Promise.all(answers.map((answer) => answer.json()));
  expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
  expect(new Set(bodies.map((body) => (body as { id: number }).id)).size).toBe(1);
  expect((await list(a)).names.filter((pet) => pet === 'Nemo')).toHaveLength(1);
  expect(b.status().possibleCopies).toBe(0);
});

it('a create that comes again from a tab without an Idempotency-Key while the first is in flight is told as a possible copy', async () => {
  const name = freshName();
  const a = await tab(name);
  await leading(a);
  const b = await tab(name);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  await Promise.all([create(b, 'Twice'), create(b, 'Twice'), create(b, 'Once')]);
  expect(b.status().possibleCopies).toBe(1);
  // The client report, in the tab that runs the fake, counts it among the resent creates.
  const { clients } = await a.control.clients();
  expect(clients.map((client) => client.rules.resentCreates.after)).toEqual([{ redispatch: 1 }]);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]?.[0])).toMatch(
    /^petstore-fake: POST \/v1\/pets came again from this tab with the same headers and body 0\.\d s after the first: possibly one request the browser dispatched twice .*Idempotency-Key/,
  );
});

/** The names of the pets and the count of replies the database `name` holds, read apart from the fake. */
async function kept(name: string): Promise<{ pets: string[]; replies: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const transaction = db.transaction(['pets', 'replies'], 'readonly');
  const read = <T>(request: IDBRequest<T>) =>
    new Promise<T>((resolve) => {
      request.onsuccess = () => resolve(request.result);
    });
  const [pets, replies] = await Promise.all([
    read(transaction.objectStore('pets').getAll()),
    read(transaction.objectStore('replies').count()),
  ]);
  db.close();
  return { pets: (pets as { name: string }[]).map((pet) => pet.name), replies };
}

/** Asks the tabs who leads, on a raw channel. */
async function leaderId(raw: BroadcastChannel): Promise<string> {
  const { promise, resolve } = Promise.withResolvers<string>();
  const listener = (event: MessageEvent<TabMessage>) => {
    if (event.data.type === 'leader') resolve(event.data.leader);
  };
  raw.addEventListener('message', listener);
  raw.postMessage({ type: 'hello' } satisfies TabMessage);
  const leader = await promise;
  raw.removeEventListener('message', listener);
  return leader;
}

it('what every tab left is there when a tab opens again (a reload, a restart), until fake.control.reset()', async () => {
  const name = freshName();
  const first = await tab(name);
  await leading(first);
  await create(first, 'Survivor');
  await first.control.setTime(Date.UTC(2031, 0, 1));
  await first.stop();
  const again = await tab(name);
  await leading(again);
  expect((await list(again)).names).toContain('Survivor');
  expect(await again.control.now()).toBeGreaterThanOrEqual(Date.UTC(2031, 0, 1));
  await again.control.reset();
  await again.stop();
  const afterReset = await tab(name);
  await leading(afterReset);
  expect((await list(afterReset)).names).not.toContain('Survivor');
  expect(await afterReset.control.now()).toBeLessThan(Date.UTC(2031, 0, 1));
});

it('a bad option fails createBrowserFake in the tab that would run the fake, naming the option', async () => {
  await expect(
    createBrowserFake({ shared: freshName(), retryAfterFormat: 'never' as 'seconds' }),
  ).rejects.toThrow(/retryAfterFormat/);
  await expect(
    createBrowserFake({
      shared: freshName(),
      seed: [{ id: 1, name: '', categoryId: 'x' }] as never,
    }),
  ).rejects.toThrow(/seed/);
});

it('shared: false gives each page a fresh fake of its own', async () => {
  const a = await createBrowserFake({ seed: 'empty', shared: false });
  const b = await createBrowserFake({ seed: 'empty', shared: false });
  await create(a, 'Only in A');
  expect((await list(a)).names).toContain('Only in A');
  expect((await list(b)).names).not.toContain('Only in A');
  expect(b.status()).toEqual({ shared: false, runsHere: true, storage: { kept: 'memory' } });
});

it('a kept state the fake cannot read is told once on the console; the fake starts from the seed in memory; reset starts over with storage', async () => {
  const name = freshName();
  const first = await tab(name);
  await leading(first);
  await create(first, 'Before');
  await first.stop();
  await corruptSession(name);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const second = await tab(name);
  await leading(second);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]?.[0])).toMatch(
    /^petstore-fake: the fake this browser kept could not be read \(.*clock.*\): this page starts from the seed .* fake\.control\.reset\(\) starts over with storage\.$/,
  );
  expect(second.status().storage).toMatchObject({ kept: 'memory' });
  expect((await list(second)).names).not.toContain('Before');
  await create(second, 'Unkept');
  await second.control.reset();
  expect(second.status().storage).toEqual({ kept: 'indexeddb' });
  await create(second, 'Kept again');
  await second.stop();
  const third = await tab(name);
  await leading(third);
  const names = (await list(third)).names;
  expect(names).toContain('Kept again');
  expect(names).not.toContain('Unkept');
  expect(warn).toHaveBeenCalledTimes(1);
});

/** Breaks the clock of the session kept under `name`, as a bad write or an old version would. */
async function corruptSession(name: string): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const transaction = db.transaction('state', 'readwrite');
  const store = transaction.objectStore('state');
  const record = await new Promise<{ session: Record<string, unknown> }>((resolve) => {
    const get = store.get('fake');
    get.onsuccess = () => resolve(get.result);
  });
  store.put({ ...record, session: { ...record.session, clock: { at: 'noon' } } }, 'fake');
  await new Promise((resolve) => {
    transaction.oncomplete = resolve;
  });
  db.close();
}
