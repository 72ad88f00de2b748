/**
 * The proxy keeps the promises of the fake behind it, as a process a user runs: a page that
 * rebinds its own name to 127.0.0.1 gets 403 from the proxy as it would from the fake, and
 * nothing outside the base path (the fake's control surface) is forwarded, however the path is
 * spelt; bound beyond loopback it warns; a failure once seen survives any number of keys after
 * it; the target's own early answer (413 to a 2 MB upload) passes through; a target that cannot
 * be reached is no verdict (exit 2); and SIGTERM ends the command's whole process group, however
 * many signals come and whether or not the command heeds them.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ExchangeRecord } from '../mock/internal/entry.ts';
import { createFake, type FakeWithCore, listenHttp } from '../mock/internal/entry.ts';
import {
  closedPort,
  endedAfterEach,
  startProxyProcess,
} from '../test/support/contract-cli-process.ts';

const key = 'enterprise-demo-key';
const { children, closers } = endedAfterEach();

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

/**
 * Whether `pid` names a running process: a zombie (killed, its parent gone, not yet reaped by
 * init) is dead, so it counts as gone; the others are given up to 2 s to be reaped.
 */
async function alive(pid: number | undefined): Promise<boolean> {
  for (let waited = 0; waited < 2_000; waited += 50) {
    try {
      process.kill(pid ?? 0, 0);
    } catch {
      return false;
    }
    let state = '';
    try {
      // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return false;
    }
    if (state === 'Z') return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
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

test('a second SIGTERM 0.5 s after the first changes nothing: a command group that ignores SIGTERM is killed 3 s after the first, and the verdict and JUnit are written', async () => {
  const { baseUrl } = await recordedFake();
  const junit = join(mkdtempSync(join(tmpdir(), 'proxy-signals-')), 'proxy.xml');
  // The shell ignores SIGTERM and SIGINT, and so does its child (an ignored signal stays ignored
  // across fork and exec, POSIX): only SIGKILL ends this group. One request goes through first,
  // so the proxy has a verdict to give.
  const client = `const r = await fetch(process.env.PETSTORE_PROXY_URL + '/pets?limit=1', { headers: { Authorization: 'Bearer ${key}' } }); await r.text();`;
  const script = `trap '' TERM INT; "$NODE" -e "$CLIENT"; sleep 300 & echo "shell $$ grandchild $!"; wait`;
  const proxy = await startProxyProcess(
    ['--target', baseUrl, '--junit', junit, '--', 'sh', '-c', script],
    children,
    { NODE: process.execPath, CLIENT: client },
  );
  const group = /shell (\d+) grandchild (\d+)/;
  for (let waited = 0; !group.test(proxy.output()); waited += 50) {
    if (waited > 20_000) throw new Error(`no grandchild: ${proxy.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [, shell, grandchild] = (group.exec(proxy.output()) ?? []).map(Number);
  expect(process.kill(shell ?? 0, 0) && process.kill(grandchild ?? 0, 0)).toBe(true);
  const closed = once(proxy.child, 'close');
  const firstAt = performance.now();
  proxy.child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  // CI runners and `timeout` send more than one: this one must not make the proxy exit 143 at
  // once, its command's group left running and no JUnit written.
  expect(proxy.child.exitCode).toBe(null);
  proxy.child.kill('SIGTERM');
  const [code] = (await closed) as [number];
  const tookMs = performance.now() - firstAt;
  // docs/harness/proxy.md: stopped first, the proxy sends the group its signal, SIGKILL to
  // whatever is left 3 s later, waits for the command and exits with its verdict (one exchange
  // judged, no rule broken: 0).
  expect(code, proxy.output()).toBe(0);
  expect(proxy.output()).toMatch(/stopped \(SIGTERM\) before sh ended/);
  expect(proxy.output()).toMatch(/no rule seen broken in 1 exchange /);
  expect(tookMs).toBeGreaterThanOrEqual(2_900);
  expect(tookMs).toBeLessThan(10_000);
  expect(await alive(shell)).toBe(false);
  expect(await alive(grandchild)).toBe(false);
  expect(existsSync(junit)).toBe(true);
  expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite [^>]*tests="\d+"/);
  expect(readFileSync(junit, 'utf8')).toContain('<property name="judged" value="1"/>');
}, 30_000);

test('SIGINT then SIGTERM then SIGINT: any mix of signals still ends the group and writes the JUnit', async () => {
  const { baseUrl } = await recordedFake();
  const junit = join(mkdtempSync(join(tmpdir(), 'proxy-signals-')), 'proxy.xml');
  const proxy = await startProxyProcess(
    [
      '--target',
      baseUrl,
      '--junit',
      junit,
      '--',
      'sh',
      '-c',
      `trap '' TERM INT; echo "shell $$"; while :; do sleep 1; done`,
    ],
    children,
  );
  for (let waited = 0; !/shell (\d+)/.test(proxy.output()); waited += 50) {
    if (waited > 20_000) throw new Error(`no shell: ${proxy.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const shell = Number(/shell (\d+)/.exec(proxy.output())?.[1]);
  const closed = once(proxy.child, 'close');
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGINT'] as const) {
    proxy.child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const [code] = (await closed) as [number];
  // Nothing went through the proxy: no evidence, no verdict (proxy.md's exit 2), never 130 or 143.
  expect(code, proxy.output()).toBe(2);
  expect(proxy.output()).toMatch(/stopped \(SIGINT\) before sh ended/);
  expect(await alive(shell)).toBe(false);
  expect(existsSync(junit)).toBe(true);
}, 30_000);
