/**
 * `npm start --pact-out <file>` as a child process on a real port: the pact of what its clients
 * did is written on exit, and a path that cannot be written stops the start (exit 2) naming the flag.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  cliPath,
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../../test/support/fake-process.ts';
import type { PactFile } from './pact-step.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-pact-cli-'));
afterEach(stopFakeProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('--pact-out writes the Pact V4 file of what the clients did on SIGTERM', async () => {
  const port = await freePort();
  const pactFile = join(dir, 'pact.json');
  const { child, output } = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--pact-out',
    pactFile,
  ]);
  const headers = { Authorization: 'Bearer free-demo-key' };
  expect((await fetch(`http://127.0.0.1:${port}/v1/pets/2`, { headers })).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/v1/pets`)).status).toBe(401);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);
  expect(output()).toContain(`petstore-fake: pact written to ${pactFile} (2 interactions)`);
  const pact = JSON.parse(readFileSync(pactFile, 'utf8')) as PactFile;
  expect(pact.metadata.pactSpecification).toEqual({ version: '4.0' });
  expect(pact.interactions.map((each) => each.description)).toEqual([
    'getPet 200: GET /pets/{petId} (a key on the free plan, pet 2 exists)',
    'listPets 401 unauthorized: GET /pets (no key)',
  ]);
  expect(readFileSync(pactFile, 'utf8')).not.toContain('free-demo-key');
});

test('--pact-out into a folder that does not exist stops the start, naming the flag', () => {
  const run = spawnSync(
    process.execPath,
    [cliPath, '--no-staging', '--pact-out', join(dir, 'missing', 'pact.json')],
    { encoding: 'utf8' },
  );
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('--pact-out: cannot write');
  expect(run.stderr).toContain('does not exist');
});
