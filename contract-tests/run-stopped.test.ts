/**
 * A contract run stopped before it finished, as a user stops one: SIGTERM to the CLI, or npm
 * killed above it (npm 11 exits 143 and does not pass the signal on). It says how far it got,
 * writes --junit with the checks that finished, never claims a verdict it does not have (exit 2
 * unless a finished check failed), and exits within 5 s instead of running on re-parented.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const key = 'enterprise-demo-key';

const open: FakeTarget[] = [];
const servers: Server[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(open.splice(0).map((target) => target.close()));
});

/** The fake behind a forwarder that answers each request 150 ms late: a run that takes a while. */
async function slowFake(): Promise<string> {
  const target = await httpFakeTarget({ virtualTime: false, apiKey: key });
  open.push(target);
  const origin = new URL(target.baseUrl).origin;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers.set(name, value);
    try {
      const answer = await fetch(`${origin}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
          out[name] = value;
      });
      response.writeHead(answer.status, out).end(body);
    } catch {
      response.destroy();
    }
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

/** Starts `command` and collects its output; resolves once `pattern` shows. */
async function startUntil(command: string, args: readonly string[], pattern: RegExp) {
  const { PETSTORE_API_KEY: _, ...env } = process.env;
  const child = spawn(command, args, {
    cwd: root,
    env: { ...env, PETSTORE_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !pattern.test(output); waited += 50) {
    if (waited > 60_000 || child.exitCode !== null)
      throw new Error(`never printed ${pattern}: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

/** Resolves 'closed' when the child's output pipes close, or after 5 s. */
function closedWithin5s(child: ChildProcess): Promise<string> {
  return Promise.race([
    once(child, 'close').then(() => 'closed'),
    new Promise<string>((resolve) => setTimeout(() => resolve('still running after 5 s'), 5_000)),
  ]);
}

test('SIGTERM mid-run: says how far it got, writes --junit with the finished checks, exit 2 (no verdict)', async () => {
  const baseUrl = await slowFake();
  const junit = join(mkdtempSync(join(tmpdir(), 'run-stopped-')), 'report.xml');
  const run = await startUntil(
    process.execPath,
    [join(root, 'contract-tests/cli.ts'), '--base-url', baseUrl, '--seed', '3', '--junit', junit],
    /^ {2}pass {2}/m,
  );
  run.child.kill('SIGTERM');
  const exited = once(run.child, 'exit');
  expect(await closedWithin5s(run.child)).toBe('closed');
  const [code] = (await exited) as [number];
  expect(code).toBe(2);
  expect(run.output()).toMatch(
    /petstore-contract: stopped \(SIGTERM\) before the run finished, after \d+ check\(s\) and \d+ request\(s\): no verdict/,
  );
  expect(run.output()).not.toMatch(/conforms/);
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toMatch(/<testsuites name="petstore-contract" tests="[1-9]\d*" failures="0"/);
}, 90_000);

test('npm killed above a run: the run notices its parent is gone, reports and exits within 5 s', async () => {
  const baseUrl = await slowFake();
  const run = await startUntil(
    'npm',
    ['run', 'contract', '--', '--base-url', baseUrl, '--seed', '4'],
    /^ {2}pass {2}/m,
  );
  run.child.kill('SIGTERM');
  // The run still holds npm's stdout and stderr: they close when it exits.
  expect(await closedWithin5s(run.child)).toBe('closed');
  expect(run.output()).toMatch(/stopped \(parent gone\) before the run finished/);
}, 90_000);
