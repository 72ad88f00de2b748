/**
 * The fake under faults: kill -9 with a state file, clients that vanish or trickle, SIGTERM with
 * a request in flight, concurrent creates, a full store, and a locked control surface.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import {
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../test/support/fake-process.ts';
import { createFake, type FakeWithCore } from '../../core/fake.ts';
import { type HttpDoor, listenHttp } from '../http/http-server.ts';

const auth = { Authorization: 'Bearer enterprise-demo-key' };
afterEach(stopFakeProcesses);

/** The fake on one origin, quiet: what these tests start. */
const startCli = (args: string[], env: Record<string, string> = {}) =>
  startFakeProcess(['--no-staging', '--quiet', ...args], env);

function createPet(base: string, name: string) {
  return fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
}

test.each([[[]], [['--fsync']]])(
  'with --state-file %j, kill -9 loses no pet that was acknowledged with 201',
  async (extra) => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'petstore-state-')), 'state.jsonl');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await startCli(['--port', String(port), '--state-file', stateFile, ...extra]);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createPet(base, `durable-${i}`)),
    );
    const acknowledged = await Promise.all(
      responses
        .filter((r) => r.status === 201)
        .map((r) => r.json() as Promise<{ id: number; name: string }>),
    );
    expect(acknowledged).toHaveLength(40);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    await startCli(['--port', String(port), '--state-file', stateFile, ...extra]);
    for (const pet of acknowledged) {
      const got = await fetch(`${base}/v1/pets/${pet.id}`, { headers: auth });
      expect(got.status, `pet ${pet.id}`).toBe(200);
      expect(((await got.json()) as { name: string }).name).toBe(pet.name);
    }
    const next = (await (await createPet(base, 'after-restart')).json()) as { id: number };
    expect(next.id).toBeGreaterThan(Math.max(...acknowledged.map((pet) => pet.id)));
    expect(readFileSync(stateFile, 'utf8')).not.toMatch(/demo-key/);
  },
);

test('binding beyond loopback warns and disables the control surface unless a token is set', async () => {
  const port = await freePort();
  const open = await startCli(['--host', '0.0.0.0', '--port', String(port)]);
  expect(open.output()).toMatch(/warning: listening on 0\.0\.0\.0.*control surface is disabled/s);
  const denied = await fetch(`http://127.0.0.1:${port}/__control/state`);
  expect(denied.status).toBe(403);
  expect(await denied.json()).toMatchObject({ code: 'control_forbidden', status: 403 });
  open.child.kill('SIGKILL');
  await once(open.child, 'exit');

  const token = 'qa-control-token-0123456789';
  const tokenPort = await freePort();
  const locked = await startCli(['--host', '0.0.0.0', '--port', String(tokenPort)], {
    PETSTORE_CONTROL_TOKEN: token,
  });
  expect(locked.output()).not.toContain(token);
  expect((await fetch(`http://127.0.0.1:${tokenPort}/__control/state`)).status).toBe(403);
  expect(
    (
      await fetch(`http://127.0.0.1:${tokenPort}/__control/state`, {
        headers: { 'X-Control-Token': `${token}x` },
      })
    ).status,
  ).toBe(403);
  expect(
    (
      await fetch(`http://127.0.0.1:${tokenPort}/__control/state`, {
        headers: { 'X-Control-Token': token },
      })
    ).status,
  ).toBe(200);
});

test('SIGTERM lets a request that is still arriving finish, then exits 0', async () => {
  const port = await freePort();
  const { child } = await startCli(['--port', String(port)]);
  const body = JSON.stringify({ name: 'in-flight', categoryId: 1 });
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer enterprise-demo-key\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 200));
  let reply = '';
  socket.on('data', (chunk) => (reply += chunk));
  socket.end(body.slice(10));
  const [code] = await once(child, 'exit');
  expect(reply).toMatch(/^HTTP\/1\.1 201 Created/);
  expect(code).toBe(0);
});

describe_inProcess();

function describe_inProcess() {
  let fake: FakeWithCore;
  let door: HttpDoor;
  let base: string;
  beforeAll(async () => {
    fake = await createFake({ maxPets: 300 });
    door = await listenHttp(fake.behaviour, {
      port: 0,
      origin: fake.config.origins[0] as string,
      limits: {
        headersTimeout: 500,
        requestTimeout: 1_000,
        keepAliveTimeout: 300,
        connectionsCheckingInterval: 100,
      },
    });
    base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
  });
  afterAll(() => door.close());

  const rawSocket = async (): Promise<Socket> => {
    const socket = connect((door.server.address() as { port: number }).port, '127.0.0.1');
    socket.on('error', () => {}); // a write after the server hung up: expected here
    socket.resume(); // read whatever comes, so the server's FIN is seen and 'close' fires
    await once(socket, 'connect');
    return socket;
  };

  test('N concurrent creates get N distinct ids, all retrievable', async () => {
    await fake.control.reset();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => createPet(base, `parallel-${i}`)),
    );
    const pets = await Promise.all(responses.map((r) => r.json() as Promise<{ id: number }>));
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(100);
    for (const pet of pets)
      expect((await fetch(`${base}/v1/pets/${pet.id}`, { headers: auth })).status).toBe(200);
  });

  test('a full store answers 507 store_full and keeps what it has', async () => {
    await fake.control.reset();
    const results = await Promise.all(
      Array.from({ length: 130 }, (_, i) => createPet(base, `fill-${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(120);
    const full = results.find((r) => r.status === 507);
    expect(await full?.json()).toMatchObject({ code: 'store_full', status: 507 });
    expect(fake.control.snapshot().pets).toHaveLength(300);
  });

  test('a client that disconnects mid-body creates nothing and does not hurt the server', async () => {
    await fake.control.reset();
    const socket = await rawSocket();
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer enterprise-demo-key\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"half"',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.control.snapshot().pets).toHaveLength(180);
    expect((await fetch(`${base}/v1/pets?limit=1`, { headers: auth })).status).toBe(200);
  });

  test('slow trickles and half-open connections are timed out and freed', async () => {
    const trickle = await rawSocket();
    let reply = '';
    trickle.on('data', (chunk) => (reply += chunk));
    trickle.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const timer = setInterval(() => trickle.write('X-Slow: 1\r\n'), 100);
    const halfOpen = await rawSocket();
    halfOpen.write(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{',
    );
    await Promise.all([once(trickle, 'close'), once(halfOpen, 'close')]);
    clearInterval(timer);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toContain('"code":"request_timeout"');
  }, 10_000);

  test('headers over 16 KiB get 431 request_header_too_large with the rate-limit headers', async () => {
    const socket = await rawSocket();
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.write(
      `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    );
    await once(socket, 'close');
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(reply).toContain('"code":"request_header_too_large"');
    expect(reply).toMatch(/x-ratelimit-limit: \d+/i);
  });

  test('an idle kept-alive connection is closed after the keep-alive time-out', async () => {
    const socket = await rawSocket();
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.write(
      'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer enterprise-demo-key\r\n\r\n',
    );
    const started = Date.now();
    await once(socket, 'close');
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('oversized bodies get 413 as soon as Content-Length says so', async () => {
    const socket = await rawSocket();
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    socket.write(
      'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer enterprise-demo-key\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{',
    );
    await once(socket, 'close');
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toContain('"code":"payload_too_large"');
    expect(reply).toMatch(/x-ratelimit-limit: \d+/i);
  });
}
