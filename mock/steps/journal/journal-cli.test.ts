/**
 * The journal as `npm start` runs it, a child process on a real port: on by default,
 * `--journal-entries <n>` bounds it (what went is counted), and a bad value stops the start
 * (exit 2) naming the flag.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, expect, test } from 'vitest';
import {
  cliPath,
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../test/support/fake-process.ts';
import type { JournalAnswer } from './journal-entry.ts';

afterEach(stopFakeProcesses);

test('npm start journals every request; --journal-entries keeps the newest n and counts the rest', async () => {
  const port = await freePort();
  await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--journal-entries',
    '2',
  ]);
  const headers = { Authorization: 'Bearer free-demo-key' };
  for (const limit of [1, 2, 3])
    await fetch(`http://127.0.0.1:${port}/v1/pets?limit=${limit}`, { headers });
  const res = await fetch(`http://127.0.0.1:${port}/__control/requests`);
  const journal = (await res.json()) as JournalAnswer;
  expect(journal).toMatchObject({ total: 2, dropped: 1, bounds: { maxEntries: 2 } });
  expect(journal.requests.map((entry) => entry.query)).toEqual(['?limit=3', '?limit=2']);
});

test('a bad --journal-entries stops the start with exit 2, naming the flag', () => {
  const run = spawnSync(process.execPath, [cliPath, '--journal-entries', '2.5'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('--journal-entries');
});

test('--journal-entries 0 turns the journal off: nothing is kept', async () => {
  const port = await freePort();
  const args = ['--port', String(port), '--no-staging', '--quiet', '--journal-entries', '0'];
  await startFakeProcess(args);
  const headers = { Authorization: 'Bearer free-demo-key' };
  await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers });
  await fetch(`http://127.0.0.1:${port}/nowhere`);
  const res = await fetch(`http://127.0.0.1:${port}/__control/requests`);
  expect(await res.json()).toMatchObject({ total: 0, dropped: 0, bounds: { maxEntries: 0 } });
});
