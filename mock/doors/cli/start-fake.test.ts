import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startFake } from './start-fake.ts';

const headers = { Authorization: 'Bearer free-demo-key' };

/** Whether a port on 127.0.0.1 can be listened on again (its door let it go). */
async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

test('startFake listens on a free port of this process, answers as the fake there, and close() frees the port', async () => {
  const fake = await startFake({ stagingPort: 0 });
  const { port } = new URL(fake.url);
  expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const listed = await fetch(`${fake.url}/pets?limit=2`, { headers });
  expect(listed.status).toBe(200);
  expect(await listed.json()).toHaveLength(2);
  expect(listed.headers.get('X-RateLimit-Remaining')).toBe('59');
  // The staging origin is a port of its own, one window each.
  const staging = await fetch(`${fake.stagingUrl}/pets?limit=1`, { headers });
  expect(staging.status).toBe(200);
  // The control surface over HTTP, and in this process.
  const state = await fetch(`${fake.controlUrl}/state`);
  expect(state.status).toBe(200);
  fake.control.force('listPets', 503, 1);
  expect((await fetch(`${fake.url}/pets`, { headers })).status).toBe(503);
  await fake.close();
  await fake.close();
  expect(await portIsFree(Number(port))).toBe(true);
  await expect(fetch(`${fake.url}/pets`, { headers })).rejects.toThrow();
});

test('startFake keeps its pets in a state file across restarts and writes its exit files on close()', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-fake-'));
  const stateFile = join(dir, 'state.jsonl');
  const exitFiles = {
    'pact-out': join(dir, 'app-pact.json'),
    'coverage-report': join(dir, 'coverage.json'),
  } as const;
  const first = await startFake({ stateFile, exitFiles });
  const created = await fetch(`${first.url}/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Kept', categoryId: 3 }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  expect(existsSync(exitFiles['pact-out'])).toBe(false);
  await first.close();
  const pact = JSON.parse(readFileSync(exitFiles['pact-out'], 'utf8')) as {
    interactions: unknown[];
  };
  expect(pact.interactions.length).toBeGreaterThan(0);
  expect(JSON.parse(readFileSync(exitFiles['coverage-report'], 'utf8'))).toMatchObject({
    schema: 'petstore-coverage/1',
  });
  const second = await startFake({ stateFile });
  // A path in a folder that does not exist fails before the fake starts, naming the option.
  await expect(
    startFake({ exitFiles: { 'client-report': join(dir, 'missing', 'report.json') } }),
  ).rejects.toThrow(/exitFiles\['client-report'\].*the folder .* does not exist/);
  const read = await fetch(`${second.url}/pets/${id}`, { headers });
  expect(await read.json()).toMatchObject({ id, name: 'Kept', categoryId: 3 });
  await second.close();
});
