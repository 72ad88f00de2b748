/**
 * The proxy keeps the promises of the fake behind it, as a process a user runs: a page that
 * rebinds its own name to 127.0.0.1 gets 403 from the proxy as it would from the fake, and
 * nothing outside the base path (the fake's control surface) is forwarded, however the path is
 * spelt; bound beyond loopback it warns; a failure once seen survives any number of keys after
 * it; the target's own early answer (413 to a 2 MB upload) passes through; a target that cannot
 * be reached is no verdict (exit 2); and SIGTERM ends the command's whole process group.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { listenHttp } from '../mock/doors/http/http-server.ts';
import { createFake, type FakeWithCore } from '../mock/fake.ts';
import type { ExchangeRecord } from '../mock/pipeline/config/config.ts';
import { closedPort, startProxyProcess } from './cli-process.ts';

const key = 'enterprise-demo-key';
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const close of closers.splice(0)) await close();
});

/** A fake on a free port that records every request reaching it (the API's and the control surface's). */
async function recordedFake(): Promise<{
  fake: FakeWithCore;
  baseUrl: string;
  seen: ExchangeRecord[];
}> {
  const seen: ExchangeRecord[] = [];
  const fake = await createFake({ onExchange: (record) => seen.push(record) });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  closers.push(() => door.close());
  const port = (door.server.address() as { port: number }).port;
  return { fake, baseUrl: `http://127.0.0.1:${port}/v1`, seen };
}

/** A raw request to the proxy: any Host, the path exactly as given (fetch would normalise it). */
async function raw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  const sent = request({ host: '127.0.0.1', port, path, method, headers });
  sent.end(body);
  const [answer] = (await once(sent, 'response')) as [import('node:http').IncomingMessage];
  let text = '';
  for await (const chunk of answer) text += chunk;
  return { status: answer.statusCode ?? 0, text };
}

async function stop(proxy: { child: ChildProcess }, signal: NodeJS.Signals = 'SIGTERM') {
  proxy.child.kill(signal);
  const [code] = (await once(proxy.child, 'close')) as [number];
  return code;
}

test('through the proxy, a foreign Host gets 403 and nothing outside the base path reaches the fake, however spelt', async () => {
  const { baseUrl, seen } = await recordedFake();
  const proxy = await startProxyProcess(['--target', baseUrl, '--port', '0'], children);
  const own = { Host: `127.0.0.1:${proxy.port}`, Authorization: `Bearer ${key}` };
  const foreign = { ...own, Host: 'rebind.attacker.example' };

  for (const path of ['/v1/pets', '/__control/pact', '/__contract/report']) {
    const refused = await raw(proxy.port, path, foreign);
    expect(refused.status, path).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'host_not_allowed', status: 403 });
  }
  for (const path of [
    '/__control/pact',
    '/__control/reset',
    '/v2/pets',
    '/v1/../__control/pact',
    '/v1/%2e%2e/__control/pact',
    '/v1/pets/%252e%252e/%252e%252e/__control/pact',
    '/v1/pets/..%2F..%2F__control%2Fpact',
    'http://127.0.0.1/__control/pact',
  ]) {
    const refused = await raw(proxy.port, path, own);
    expect([400, 404], path).toContain(refused.status);
    expect(refused.text, path).toContain('petstore-contract proxy:');
  }
  const posted = await raw(proxy.port, '/__contract/report', own, 'POST', Buffer.from('{}'));
  expect(posted.status).toBe(404);
  expect(seen).toEqual([]);

  // Its own Host and a path under the base path: forwarded, and the report answers.
  expect((await raw(proxy.port, '/v1/pets?limit=1', own)).status).toBe(200);
  expect((await raw(proxy.port, '/__contract/report', own)).status).toBe(200);
  expect(seen.map((record) => `${record.method} ${record.url}`)).toEqual(['GET /v1/pets?limit=1']);
  expect(await stop(proxy)).toBe(0);
});

test('bound beyond loopback, the proxy warns and answers only the Host names it is given', async () => {
  const { baseUrl } = await recordedFake();
  const proxy = await startProxyProcess(
    ['--target', baseUrl, '--port', '0', '--host', '0.0.0.0', '--allowed-hosts', 'ci-runner.test'],
    children,
  );
  expect(proxy.output()).toContain(
    'petstore-contract proxy: warning: listening on 0.0.0.0, reachable beyond this machine',
  );
  const named = await raw(proxy.port, '/v1/pets?limit=1', {
    Host: 'ci-runner.test',
    Authorization: `Bearer ${key}`,
  });
  expect(named.status).toBe(200);
  expect((await raw(proxy.port, '/v1/pets', { Host: 'elsewhere.test' })).status).toBe(403);
  expect(await stop(proxy)).toBe(0);
});

test('a failure once seen is never forgotten: one 500, then 1,001 made-up keys, and the run still fails', async () => {
  const { fake, baseUrl } = await recordedFake();
  fake.control.force('listPets', 500, 1);
  const proxy = await startProxyProcess(['--target', baseUrl, '--port', '0'], children);
  const host = { Host: `127.0.0.1:${proxy.port}` };
  expect(
    (await raw(proxy.port, '/v1/pets', { ...host, Authorization: `Bearer ${key}` })).status,
  ).toBe(500);
  // More keys than the proxy follows at once (1,000): the first key's window is forgotten.
  for (let start = 0; start < 1001; start += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, 1001 - start) }, (_, index) =>
        raw(proxy.port, '/v1/pets', { ...host, Authorization: `Bearer made-up-${start + index}` }),
      ),
    );
  const code = await stop(proxy);
  expect(proxy.output()).toMatch(/FAIL +server\.no5xx/);
  expect(proxy.output()).toContain('the server breaks the interface');
  expect(code).toBe(1);
});

test("the target's own early answer passes through: a 2 MB upload it refuses with 413 is a 413, not a lost connection", async () => {
  const { baseUrl } = await recordedFake();
  const proxy = await startProxyProcess(['--target', baseUrl, '--port', '0'], children);
  // No key: the fake refuses the size before it reads a key, with the anonymous X-RateLimit-*
  // headers, which the key's own window checks are not about.
  const headers = {
    Host: `127.0.0.1:${proxy.port}`,
    'Content-Type': 'application/json',
    'Content-Length': String(2_000_000),
  };
  for (let round = 0; round < 3; round++) {
    const answer = await raw(proxy.port, '/v1/pets', headers, 'POST', Buffer.alloc(2_000_000, 32));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'payload_too_large' });
  }
  const code = await stop(proxy);
  expect(proxy.output()).not.toMatch(/EPIPE|ECONNRESET|without an answer/);
  expect(code, proxy.output()).toBe(0);
});

test('a target that cannot be reached is no verdict: exit 2, the client told 502, nothing blamed on the server', async () => {
  const target = `http://127.0.0.1:${await closedPort()}/v1`;
  const proxy = await startProxyProcess(['--target', target, '--port', '0'], children);
  const answer = await raw(proxy.port, '/v1/pets', { Host: `127.0.0.1:${proxy.port}` });
  expect(answer.status).toBe(502);
  expect(answer.text).toContain('the target could not be reached (ECONNREFUSED)');
  const code = await stop(proxy);
  expect(proxy.output()).toContain(
    'no verdict: the target could not be reached for some requests (1 x ECONNREFUSED)',
  );
  expect(proxy.output()).not.toContain('breaks the interface');
  expect(code).toBe(2);
});

test("SIGTERM ends the command's whole process group: a child the command started does not outlive the proxy", async () => {
  const { baseUrl } = await recordedFake();
  const proxy = await startProxyProcess(
    ['--target', baseUrl, '--', 'sh', '-c', 'sleep 300 & echo "grandchild $!"; wait'],
    children,
  );
  for (let waited = 0; !/grandchild (\d+)/.test(proxy.output()); waited += 50) {
    if (waited > 10_000) throw new Error(`no grandchild: ${proxy.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const grandchild = Number(/grandchild (\d+)/.exec(proxy.output())?.[1]);
  expect(() => process.kill(grandchild, 0)).not.toThrow();
  await stop(proxy);
  expect(() => process.kill(grandchild, 0)).toThrow();
});
