/**
 * The files `npm start` writes when it ends (`--pact-out`, `--coverage-report`,
 * `--client-report`), through signals as a user or a supervisor sends them: each is written whole
 * or not at all (a temporary file renamed over it), so a kill in the middle of a large write leaves
 * the file it had before; SIGINT pressed twice while in-flight requests finish writes them at once
 * instead of dropping them; SIGHUP (a closed terminal) writes them too; and a file that cannot be
 * written makes the exit code 1, naming the flag.
 */
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../test/support/fake-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-exit-files-'));
afterEach(stopFakeProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
/** A fresh folder for one test's files. */
function folder(): string {
  made += 1;
  const path = join(dir, `case-${made}`);
  mkdirSync(path);
  return path;
}

const key = { Authorization: 'Bearer enterprise-demo-key' };

/** `npm start` on a free port, without the request log, with `flags`; answers its port too. */
async function quietFake(flags: readonly string[]) {
  const port = await freePort();
  const started = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    ...flags,
  ]);
  return { port, ...started };
}

test.each([100, 600])(
  'a kill %i ms after SIGTERM, whatever it interrupts, leaves the previous pact or the whole new one',
  async (delayMs) => {
    const here = folder();
    const pactFile = join(here, 'pact.json');
    const previous = '{"previous": true}\n';
    writeFileSync(pactFile, previous);
    const { port, child } = await quietFake(['--pact-out', pactFile]);
    // About 7 MB of pact: a thousand shapes, each a query name of 2,000 characters.
    for (let start = 0; start < 1000; start += 50)
      await Promise.all(
        Array.from({ length: 50 }, async (_, offset) => {
          const url = `http://127.0.0.1:${port}/v1/pets?q-${start + offset}-${'z'.repeat(2000)}=1`;
          await (await fetch(url, { headers: key })).text();
        }),
      );
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    child.kill('SIGKILL');
    await exited;
    // Either outcome is right, whichever the kill interrupted; a torn file is not (it would not
    // parse), nor a pact cut short.
    const text = readFileSync(pactFile, 'utf8');
    const outcome =
      text === previous
        ? 'the previous file'
        : (JSON.parse(text) as { interactions: unknown[] }).interactions.length > 900
          ? 'the whole new pact'
          : 'a pact cut short';
    expect(['the previous file', 'the whole new pact']).toContain(outcome);
  },
  60_000,
);

test('SIGINT twice while a request is still arriving writes every exit file at once, exit 0', async () => {
  const here = folder();
  const files = ['pact.json', 'coverage.md', 'clients.json'].map((name) => join(here, name));
  const port = await freePort();
  const { child, output } = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--pact-out',
    files[0] as string,
    '--coverage-report',
    files[1] as string,
    '--client-report',
    files[2] as string,
  ]);
  await (await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: key })).text();
  // An upload that stalls half-way: the first SIGINT waits for it (up to 5 s).
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
  );
  socket.on('error', () => {});
  // Let the fake read the headers first: a SIGINT before that finds the connection idle, closes
  // it and exits at once, before the second SIGINT (as reliability.test.ts waits too).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const second = Date.now();
  child.kill('SIGINT');
  const [code, signal] = (await exited) as [number | null, string | null];
  socket.destroy();
  expect(signal).toBe(null);
  expect(code).toBe(0);
  expect(Date.now() - second).toBeLessThan(3_000);
  expect(output()).toContain('petstore-fake: SIGINT again, writing the exit files now');
  for (const file of files) expect(existsSync(file), file).toBe(true);
  expect(JSON.parse(readFileSync(files[0] as string, 'utf8')).interactions).toHaveLength(1);
});

test('SIGHUP (the terminal closed) writes the exit files too, exit 0', async () => {
  const pactFile = join(folder(), 'pact.json');
  const { port, child } = await quietFake(['--pact-out', pactFile]);
  await (await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: key })).text();
  const exited = once(child, 'exit');
  child.kill('SIGHUP');
  expect((await exited)[0]).toBe(0);
  expect(JSON.parse(readFileSync(pactFile, 'utf8')).interactions).toHaveLength(1);
});

test('an exit file that cannot be written exits 1, naming the flag; the others are still written', async () => {
  const gone = folder();
  const kept = folder();
  const { port, child, output } = await quietFake([
    '--pact-out',
    join(gone, 'pact.json'),
    '--coverage-report',
    join(kept, 'coverage.json'),
  ]);
  await (await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: key })).text();
  // The folder checked at start is gone by the end (a CI workspace cleaned, a disk unmounted).
  rmSync(gone, { recursive: true });
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(1);
  expect(output()).toContain(`petstore-fake: --pact-out: cannot write ${join(gone, 'pact.json')}`);
  expect(JSON.parse(readFileSync(join(kept, 'coverage.json'), 'utf8')).schema).toBe(
    'petstore-coverage/1',
  );
});
