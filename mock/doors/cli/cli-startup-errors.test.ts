/**
 * Starting the fake and the demo as a user does (`npm start --`, `npm run demo --`, the fake's
 * CLI), where the start cannot go on: a busy production or staging port, a state file or client
 * report path that is a directory or in a missing folder, an unknown flag. Each is one line
 * naming the flag, exit 2, no stack trace, and nothing is listening afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { cliPath, freePort } from '../../../test/support/fake-process.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const held: Server[] = [];
afterEach(async () => {
  await Promise.all(
    held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

/** Holds a port the way another program would. */
async function busyPort(port = 0): Promise<number> {
  const server = createServer().listen(port, '127.0.0.1');
  await once(server, 'listening');
  held.push(server);
  return (server.address() as { port: number }).port;
}

/** Runs a command to its end; the process is async so the held ports keep being served. */
async function run(command: string, args: readonly string[]) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The lines a failed start printed that are its own (npm adds its banner and warnings). */
function ownLines(stderr: string, tool: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith(`${tool}:`) || /^\s+at /.test(line));
}

test('npm start -- --port P, where the staging port P + 1 is taken, names --staging-port in one line, exit 2', async () => {
  // A free production port whose next port this test can hold (another program may hold it).
  let staging = 0;
  while (staging === 0) {
    const production = await freePort();
    staging = await busyPort(production + 1).catch(() => 0);
  }
  const result = await run('npm', ['start', '--', '--port', String(staging - 1)]);
  expect(result.code).toBe(2);
  expect(ownLines(result.stderr, 'petstore-fake')).toEqual([
    `petstore-fake: --staging-port ${staging}: the port is in use on 127.0.0.1; pick another with --staging-port (the staging port is --port + 1 unless set; --no-staging serves none)`,
  ]);
  // The production door it had opened went away with it.
  expect(await busyPort(staging - 1)).toBe(staging - 1);
}, 120_000);

test('a busy production port names --port in one line, exit 2', async () => {
  const port = await busyPort();
  const result = await run(process.execPath, [cliPath, '--port', String(port), '--no-staging']);
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(
    `petstore-fake: --port ${port}: the port is in use on 127.0.0.1; pick another with --port\n`,
  );
});

test('a state file or client report path that is a directory or in a missing folder is one line naming the flag, exit 2', async () => {
  const port = String(await freePort());
  for (const [flag, path, why] of [
    ['--state-file', tmpdir(), 'it is a directory'],
    ['--client-report', tmpdir(), 'it is a directory'],
    [
      '--client-report',
      '/nonexistent-dir/report.json',
      'the folder /nonexistent-dir does not exist',
    ],
  ] as const) {
    const result = spawnSync(
      process.execPath,
      [cliPath, '--port', port, '--no-staging', flag, path],
      {
        encoding: 'utf8',
        timeout: 15_000,
      },
    );
    expect(result.status, `${flag} ${path}`).toBe(2);
    expect(result.stderr).toBe(
      `petstore-fake: ${flag}: cannot write ${path}: ${why}; pick a path in a folder that exists and is writable\n`,
    );
  }
});

test('an unknown flag of npm start suggests the nearest known one', () => {
  const result = spawnSync(process.execPath, [cliPath, '--staging-prot', '4011'], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  expect(result.status).toBe(2);
  expect(result.stderr.split('\n')[0]).toBe(
    'petstore-fake: unknown option --staging-prot; did you mean --staging-port?',
  );
});

test('the demo page server (npm run demo) on a busy --port is one line naming --port, exit 2; an unknown flag suggests one', async () => {
  const port = await busyPort();
  const busy = await run('npm', ['run', 'demo', '--', '--serve', '--port', String(port)]);
  expect(busy.code).toBe(2);
  expect(ownLines(busy.stderr, 'build-browser')).toEqual([
    `build-browser: --port ${port}: the port is in use on 127.0.0.1; pick another with --port (0 picks a free one)`,
  ]);
  const typo = await run('npm', ['run', 'demo', '--', '--prot', '5']);
  expect(typo.code).toBe(2);
  expect(ownLines(typo.stderr, 'build-browser')).toEqual([
    'build-browser: unknown option --prot; did you mean --port?; valid options: --serve, --port <n>',
  ]);
}, 120_000);

test('a --host that is not an address of this machine is one line naming --host, exit 2', async () => {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
  const result = await run(process.execPath, [
    cliPath,
    '--host',
    '192.0.2.1',
    '--port',
    '0',
    '--no-staging',
  ]);
  expect(result.code).toBe(2);
  expect(ownLines(result.stderr, 'petstore-fake').at(-1)).toBe(
    'petstore-fake: --host 192.0.2.1: not an address of this machine (EADDRNOTAVAIL); pick another with --host',
  );
  expect(result.stderr).not.toMatch(/\n\s+at /);
});
