/**
 * The server process at the edge of its connections: clients that pipeline and never read,
 * SIGTERM with a stalled upload, and host spellings that URL parsing rewrites. Each starts
 * `npm start`'s CLI as a child process and talks to it over raw sockets.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { cliPath, freePort, startFakeProcess, stopFakeProcesses } from './fake-process.ts';

afterEach(stopFakeProcesses);

const auth = 'Authorization: Bearer enterprise-demo-key';

function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('30 clients that pipeline requests and never read add under 100 MiB and lose their sockets within 30 s', async () => {
  const port = await freePort();
  const { child } = await startFakeProcess(['--port', String(port), '--no-staging', '--quiet']);
  const pid = child.pid as number;
  await sleep(500);
  const before = residentMiB(pid);
  const batch = `GET /v1/pets?limit=20 HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n\r\n`.repeat(20);
  const sockets: Socket[] = [];
  let open = 0;
  for (let i = 0; i < 30; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // never reads a byte of the answers
    socket.on('error', () => {});
    open += 1;
    socket.once('close', () => (open -= 1));
    const pump = () => {
      while (socket.writable && socket.write(batch));
    };
    socket.on('connect', pump);
    socket.on('drain', pump);
    sockets.push(socket);
  }
  const started = Date.now();
  let peak = before;
  while (open > 0 && Date.now() - started < 30_000) {
    await sleep(250);
    peak = Math.max(peak, residentMiB(pid));
  }
  for (const socket of sockets) socket.destroy();
  expect(open).toBe(0);
  expect(peak - before).toBeLessThan(100);
  // The server still answers a client that reads.
  const res = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
    headers: { Authorization: 'Bearer enterprise-demo-key' },
  });
  expect(res.status).toBe(200);
}, 45_000);

test('SIGTERM closes a stalled upload and exits 0 within 10 s', async () => {
  const port = await freePort();
  const { child } = await startFakeProcess(['--port', String(port), '--no-staging', '--quiet']);
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  // Headers promise 100 bytes; 10 arrive, then nothing.
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"x`,
  );
  await sleep(200);
  const signalled = Date.now();
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(10_000);
  socket.destroy();
}, 20_000);

test.each(['127.1', '0x7f000001', '2130706433'])(
  '--host %s is bound and printed as 127.0.0.1, and answers',
  async (host) => {
    const port = await freePort();
    const { output } = await startFakeProcess([
      '--host',
      host,
      '--port',
      String(port),
      '--no-staging',
      '--quiet',
    ]);
    expect(output()).toContain(`production  http://127.0.0.1:${port}/v1`);
    expect(output()).not.toMatch(/warning/);
    const res = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
      headers: { Authorization: 'Bearer enterprise-demo-key' },
    });
    expect(res.status).toBe(200);
  },
);

test('a --host that is not an address or a name stops the start with a clear error', () => {
  const run = spawnSync(process.execPath, [cliPath, '--host', 'not a host', '--no-staging'], {
    encoding: 'utf8',
    timeout: 15_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/--host must be an IP address or a host name, got "not a host"/);
});
