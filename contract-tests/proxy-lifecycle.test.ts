/**
 * How `petstore-contract proxy` starts and ends, run as a user runs it (the CLI in a child
 * process, or through `npm run contract`): a command after `--` runs with PETSTORE_PROXY_URL and
 * its failure is the proxy's exit code; nothing judged is no evidence (exit 2), never 0; SIGTERM
 * ends it with its verdict's code; a parent that goes away (npm killed) is noticed and the verdict,
 * the JUnit file and the port are taken care of; a busy port or an unwritable --junit is one line,
 * exit 2, before anything is forwarded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { closedPort, runCli, startProxyProcess } from '../test/support/contract-cli-process.ts';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const key = 'enterprise-demo-key';

const open: FakeTarget[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(open.splice(0).map((target) => target.close()));
});

async function fake(): Promise<FakeTarget> {
  const target = await httpFakeTarget({ virtualTime: false, apiKey: key });
  open.push(target);
  return target;
}

/** A command that lists pets through PETSTORE_PROXY_URL, then exits with `code`. */
function client(code = 0): string[] {
  return [
    process.execPath,
    '-e',
    `const r = await fetch(process.env.PETSTORE_PROXY_URL + '/pets?limit=2', { headers: { Authorization: 'Bearer ${key}' } }); await r.text(); console.log('client: ' + r.status + ' via ' + process.env.PETSTORE_PROXY_URL); process.exit(${code});`,
  ];
}

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'proxy-lifecycle-')), name);
}

/** Whether something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

test('proxy -- <command> runs it with PETSTORE_PROXY_URL (ending in /v1) and exits with the verdict when it succeeds', async () => {
  const target = await fake();
  const junit = tempFile('proxy.xml');
  const run = await runCli([
    'proxy',
    '--target',
    target.baseUrl,
    '--junit',
    junit,
    '--',
    ...client(0),
  ]);
  expect(run.stdout).toMatch(/client: 200 via http:\/\/127\.0\.0\.1:\d+\/v1\n/);
  expect(run.stdout).toMatch(/1 requests forwarded, 1 exchanges judged/);
  expect(run.stdout).toMatch(/no rule seen broken in 1 exchange /);
  expect(run.code).toBe(0);
  expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites name="petstore-contract"/);
});

test("proxy -- <command> exits with the command's code when the command fails, after printing the verdicts", async () => {
  const target = await fake();
  const run = await runCli(['proxy', '--target', target.baseUrl, '--', ...client(3)]);
  expect(run.code).toBe(3);
  expect(run.stdout).toMatch(/1 exchanges judged/);
  expect(run.stderr).toMatch(/exited 3; exiting with its code/);
});

test('a command that cannot be started exits 127 as a shell would, naming it', async () => {
  const target = await fake();
  const run = await runCli(['proxy', '--target', target.baseUrl, '--', 'no-such-command-here']);
  expect(run.code).toBe(127);
  expect(run.stderr).toMatch(/cannot run no-such-command-here: ENOENT/);
});

test('a proxy that judged no exchange exits 2 (no evidence), never 0, counts no pass and never suggests --rate-limits', async () => {
  const target = await fake();
  const run = await runCli(['proxy', '--target', target.baseUrl, '--', process.execPath, '-e', '']);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/no evidence, no verdict/);
  expect(run.stdout).toMatch(
    /0 exchanges judged; 0 findings \(0 rules broken\); rules: 0 passed, 0 failed, 0 warned/,
  );
  expect(`${run.stdout}${run.stderr}`).not.toContain('--rate-limits');
});

test('through npm run contract -- proxy ... -- <command>, the exit code is the verdict too', async () => {
  const target = await fake();
  const child = spawn(
    'npm',
    ['run', '--silent', 'contract', '--', 'proxy', '--target', target.baseUrl, '--', ...client(5)],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number];
  expect(output).toMatch(/client: 200 via/);
  expect(code, output).toBe(5);
}, 60_000);

/** A proxy started through the CLI with `args`, once its banner is out: the child and its port. */
/** A proxy process on a free port, killed after the test. */
const proxyUnder = (args: readonly string[]) => startProxyProcess(args, children);

test('SIGTERM to a proxy that judged nothing ends it with its verdict: exit 2, no evidence', async () => {
  const target = await fake();
  const proxy = await proxyUnder(['--target', target.baseUrl, '--port', '0']);
  proxy.child.kill('SIGTERM');
  const [code] = (await once(proxy.child, 'close')) as [number];
  expect(code).toBe(2);
  expect(proxy.output()).toMatch(/no evidence, no verdict/);
});

test('a proxy whose parent goes away (npm killed by SIGTERM) writes its verdict and JUnit, frees its port and exits within 5 s', async () => {
  const target = await fake();
  const junit = tempFile('proxy.xml');
  // npm run, started in the background as a CI step might, then killed as such a step kills it.
  const npm = spawn(
    'npm',
    ['run', 'contract', '--', 'proxy', '--target', target.baseUrl, '--port', '0', '--junit', junit],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(npm);
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !/proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) -> /.test(output); waited += 50) {
    if (waited > 30_000) throw new Error(`no banner: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const proxyUrl = /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) -> /.exec(output)?.[1] ?? '';
  const listed = await fetch(`${proxyUrl}/pets?limit=1`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  expect(listed.status).toBe(200);
  await listed.text();
  const port = Number(new URL(proxyUrl).port);
  npm.kill('SIGTERM');
  // The proxy still holds npm's stdout and stderr: both close when it exits.
  const closed = once(npm, 'close');
  const outcome = await Promise.race([
    closed.then(() => 'closed'),
    new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
  ]);
  expect(outcome, output).toBe('closed');
  expect(output).toMatch(/its parent process went away; stopping/);
  expect(output).toMatch(/1 requests forwarded, 1 exchanges judged/);
  expect(existsSync(junit)).toBe(true);
  expect(await listening(port)).toBe(false);
}, 60_000);

test('a port in use is one line naming --port, exit 2, no stack trace', async () => {
  const busy = createServer().listen(0, '127.0.0.1');
  await once(busy, 'listening');
  const port = (busy.address() as { port: number }).port;
  try {
    const run = await runCli([
      'proxy',
      '--target',
      `http://127.0.0.1:${await closedPort()}/v1`,
      '--port',
      String(port),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^petstore-contract: proxy: --port ${port}: the port is in use on 127\\.0\\.0\\.1; pick another with --port`,
      ),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/internal error/);
  } finally {
    busy.close();
  }
});

test('an unusable --junit path is one line naming the flag, exit 2, before the proxy listens or runs the command', async () => {
  for (const [path, why] of [
    ['/nonexistent/dir/proxy.xml', 'the folder /nonexistent/dir does not exist'],
    [tmpdir(), 'it is a directory'],
  ] as const) {
    const run = await runCli([
      'proxy',
      '--target',
      'http://127.0.0.1:9/v1',
      '--junit',
      path,
      '--',
      ...client(0),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      `petstore-contract: cannot write the --junit file ${path}: ${why}; pick a path in a folder that exists and is writable`,
    );
    expect(run.stdout).toBe('');
  }
});

test('an unknown proxy flag suggests the nearest known one', async () => {
  const run = await runCli(['proxy', '--targt', 'http://127.0.0.1:9/v1']);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^petstore-contract: proxy: unknown option --targt; did you mean --target\?/,
  );
});

test('SIGINT (Ctrl-C) to a proxy that judged traffic ends it with its verdict: exit 0', async () => {
  const target = await fake();
  const proxy = await proxyUnder(['--target', target.baseUrl, '--port', '0']);
  const listed = await fetch(`http://127.0.0.1:${proxy.port}/v1/pets?limit=1`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  await listed.text();
  proxy.child.kill('SIGINT');
  const [code] = (await once(proxy.child, 'close')) as [number];
  expect(code).toBe(0);
  expect(proxy.output()).toMatch(/no rule seen broken in 1 exchange /);
});

test('an address that is not this machine is one line naming --host, exit 2', async () => {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
  const run = await runCli([
    'proxy',
    '--target',
    'http://127.0.0.1:9/v1',
    '--host',
    '192.0.2.1',
    '--port',
    '0',
  ]);
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n')[0]).toBe(
    'petstore-contract: proxy: --host 192.0.2.1: not an address of this machine (EADDRNOTAVAIL); pick another with --host',
  );
});

test('SIGTERM to a proxy running a command stops the command too, and exits with the verdict', async () => {
  const target = await fake();
  const slowClient = `const r = await fetch(process.env.PETSTORE_PROXY_URL + '/pets?limit=1', { headers: { Authorization: 'Bearer ${key}' } }); await r.text(); console.log('client pid ' + process.pid); setTimeout(() => {}, 60000);`;
  let output = '';
  const child = spawn(
    process.execPath,
    [
      join(root, 'contract-tests/cli.ts'),
      'proxy',
      '--target',
      target.baseUrl,
      '--',
      process.execPath,
      '-e',
      slowClient,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !/client pid (\d+)/.test(output); waited += 50) {
    if (waited > 20_000 || child.exitCode !== null) throw new Error(`no client: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const clientPid = Number(/client pid (\d+)/.exec(output)?.[1]);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'close')) as [number];
  expect(code, output).toBe(0);
  expect(output).toMatch(/stopped \(SIGTERM\) before .* ended/);
  expect(output).toMatch(/no rule seen broken in 1 exchange /);
  // The command did not outlive the proxy.
  expect(() => process.kill(clientPid, 0)).toThrow();
});
