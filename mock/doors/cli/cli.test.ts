/**
 * `npm start` as a user runs it: a child process on real ports, its banner, its request log
 * (keys redacted), its errors for bad flags, and a graceful SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import {
  cliPath as cli,
  freePort,
  startFakeProcess,
  stopFakeProcesses,
  waitForBanner,
} from '../../../test/support/fake-process.ts';

afterEach(stopFakeProcesses);
const startCli = startFakeProcess;

test('the CLI prints the base URLs and demo keys, serves both origins and logs each request without the key', async () => {
  const [port, stagingPort] = [await freePort(), await freePort()];
  const { output } = await startCli([
    '--port',
    String(port),
    '--staging-port',
    String(stagingPort),
  ]);
  expect(output()).toContain(`production  http://127.0.0.1:${port}/v1`);
  expect(output()).toContain(`staging     http://127.0.0.1:${stagingPort}/v1`);
  expect(output()).toMatch(/free-demo-key\s+free\s+60\/min, 1000\/day/);
  const banner = output();

  const ok = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=2`, {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  expect(ok.status).toBe(200);
  const staged = await fetch(`http://127.0.0.1:${stagingPort}/v1/pets/1`, {
    headers: { Authorization: 'Bearer pro-demo-key' },
  });
  expect(staged.status).toBe(200);
  const denied = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
    headers: { Authorization: 'Bearer wrong-secret-value' },
  });
  expect(denied.status).toBe(401);
  await new Promise((resolve) => setTimeout(resolve, 100));

  const log = output().slice(banner.length);
  expect(log).toMatch(/GET \/v1\/pets\?limit=2 200 [\d.]+ms key=demo-free/);
  expect(log).toMatch(/GET \/v1\/pets\/1 200 [\d.]+ms key=demo-pro/);
  expect(log).toMatch(/GET \/v1\/pets 401 [\d.]+ms key=unknown/);
  expect(log).not.toMatch(/free-demo-key|pro-demo-key|wrong-secret-value/);
});

test('`npm start` itself builds the bundled server, serves it and stops on SIGTERM', async () => {
  const port = await freePort();
  // Its own process group, so that npm, its shell and the server all get the signal.
  const npm = spawn('npm', ['start', '--', '--port', String(port), '--no-staging'], {
    cwd: new URL('../../..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = once(npm, 'exit');
  try {
    // The first start may rebuild the bundle: allow it more than a plain start.
    const text = (await waitForBanner(npm, 60_000))();
    expect(text).toContain(
      'node --max-semi-space-size=8 node_modules/.cache/petstore-fake/server.mjs',
    );
    expect(text).toMatch(/enterprise-demo-key\s+enterprise/);
    const ok = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=3`, {
      headers: { Authorization: 'Bearer free-demo-key' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await ok.json()).toHaveLength(3);
    const denied = await fetch(`http://127.0.0.1:${port}/v1/pets`);
    expect(denied.status).toBe(401);
  } finally {
    process.kill(-(npm.pid as number), 'SIGTERM');
    await exited;
  }
  // npm may exit before the server it started has finished closing: wait for the port to close.
  let closed = false;
  for (let waited = 0; !closed && waited < 10_000; waited += 100) {
    closed = await fetch(`http://127.0.0.1:${port}/v1/pets`).then(
      () => false,
      () => true,
    );
    if (!closed) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(closed).toBe(true);
}, 90_000);

test('--seed starts from another file or empty, and --keys from another keys file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
  const seed = join(dir, 'pets.json');
  writeFileSync(seed, JSON.stringify([{ id: 7, name: 'Only', categoryId: 1, status: 'sold' }]));
  const keys = join(dir, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      plans: { tiny: { perMinute: 1, perDay: 1 } },
      keys: [{ id: 'qa', key: 'qa-key-123', plan: 'tiny' }],
    }),
  );
  const port = await freePort();
  const { output } = await startCli([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--seed',
    seed,
    '--keys',
    keys,
  ]);
  expect(output()).toMatch(/qa-key-123\s+tiny\s+1\/min, 1\/day/);
  const auth = { Authorization: 'Bearer qa-key-123' };
  const listed = await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: auth });
  expect(await listed.json()).toEqual([{ id: 7, name: 'Only', categoryId: 1, status: 'sold' }]);
  expect((await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers: auth })).status).toBe(429);

  const emptyPort = await freePort();
  await startCli(['--port', String(emptyPort), '--no-staging', '--quiet', '--seed', 'empty']);
  const none = await fetch(`http://127.0.0.1:${emptyPort}/v1/pets`, {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  expect(await none.json()).toEqual([]);
});

test('SIGTERM lets the fake finish and exit 0', async () => {
  const { child } = await startCli(['--port', String(await freePort()), '--no-staging', '--quiet']);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
});

test('bad flags exit 2 with a message that names the flag and the usage', () => {
  for (const args of [
    ['--port', 'abc'],
    ['--retry-after', 'minutes'],
    ['--bogus'],
    ['--keys', '/nonexistent.json'],
  ]) {
    const result = spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr).toMatch(/^petstore-fake: /);
    expect(result.stderr).toContain('Usage: npm start');
  }
});

test('the request log names the error code of each error answer and what each control request changed', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { output } = await startCli(['--port', String(port), '--no-staging']);
  const banner = output();
  const post = (contentType: string, body: string) =>
    fetch(`${base}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer free-demo-key', 'Content-Type': contentType },
      body,
    });
  await post('application/json', '{"name":');
  await post('application/json', '{"name":"x"}');
  await post('text/plain', '{"name":"x","categoryId":1}');
  const json = { 'Content-Type': 'application/json' };
  await fetch(`${base}/__control/reset`, {
    method: 'POST',
    headers: json,
    body: '{"seed":"empty"}',
  });
  await fetch(`${base}/__control/keys`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ id: 'qa-new', key: 'qa-new-secret-key-42', plan: 'pro' }),
  });
  await fetch(`${base}/__control/clock`, { method: 'POST', headers: json, body: '{"foo":1}' });
  await new Promise((resolve) => setTimeout(resolve, 100));

  const log = output().slice(banner.length);
  expect(log).toMatch(/POST \/v1\/pets 400 [\d.]+ms key=demo-free error=invalid_json/);
  expect(log).toMatch(/POST \/v1\/pets 400 [\d.]+ms key=demo-free error=invalid_body/);
  expect(log).toMatch(/POST \/v1\/pets 400 [\d.]+ms key=demo-free error=invalid_content_type/);
  expect(log).toMatch(/POST \/__control\/reset 200 [\d.]+ms control: reset to empty \(0 pets\)/);
  expect(log).toMatch(/POST \/__control\/keys 200 [\d.]+ms control: key qa-new added \(plan pro\)/);
  expect(log).toMatch(/POST \/__control\/clock 400 [\d.]+ms control error=invalid_control_request/);
  expect(log).not.toContain('qa-new-secret-key-42');
});

test('keys sent in the query string or the path never reach the log, in any encoding', async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { output } = await startCli(['--port', String(port), '--no-staging']);
  const banner = output();
  for (const path of [
    '/v1/pets?api_key=free-demo-key&limit=2',
    '/v1/pets?access_token=some-other-secret-1',
    '/v1/pets?token=tok-abcdef-123&key=k-123456',
    '/v1/pets?limit=1&x=%66ree-demo-key',
    '/v1/pets/pro-demo-key',
    '/v1/pets/%70ro-demo-key',
  ]) {
    await fetch(`${base}${path}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const log = output().slice(banner.length);
  expect(log).toContain('GET /v1/pets?api_key=[redacted]&limit=2 401');
  expect(log).toContain('GET /v1/pets?token=[redacted]&key=[redacted] 401');
  expect(log).toContain('GET /v1/pets/[redacted] 401');
  for (const secret of [
    'free-demo-key',
    'some-other-secret-1',
    'tok-abcdef-123',
    'k-123456',
    '%66ree',
    'pro-demo-key',
    '%70ro',
  ]) {
    expect(log).not.toContain(secret);
  }
});

test('a control token shorter than 16 characters stops the start, naming the variable and the rule', () => {
  const result = spawnSync(process.execPath, [cli, '--port', '0', '--no-staging'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, PETSTORE_CONTROL_TOKEN: 'short-token' },
  });
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('PETSTORE_CONTROL_TOKEN must be at least 16 characters');
  expect(result.stderr).not.toContain('controlAccess');
  expect(result.stderr).not.toContain('short-token');
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  expect(help.stdout).toMatch(/PETSTORE_CONTROL_TOKEN\s+a secret of at least 16 characters/);
});

test('a bad value is reported under the flag the user typed, from the one check the config owns', () => {
  for (const [args, named] of [
    [['--max-pets', '0'], '--max-pets must be a positive integer'],
    [['--ban-threshold', '0'], '--ban-threshold must be a positive integer'],
    [['--ban-seconds', '0'], '--ban-seconds must be a positive integer'],
    [['--enterprise', '0/5'], '--enterprise'],
    [['--retry-after', 'minutes'], '--retry-after must be one of: seconds, http-date'],
    [['--list-order', 'random'], '--list-order must be one of: newest-first, oldest-first'],
    [['--client-copies', 'two'], '--client-copies must be one of: one, unknown'],
    [['--allowed-hosts', 'http://x.test'], '--allowed-hosts'],
    [['--fsync'], '--fsync needs --state-file'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535'],
  ] as const) {
    const result = spawnSync(process.execPath, [cli, '--no-staging', ...args], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr, args.join(' ')).toContain(`petstore-fake: ${named}`);
    expect(result.stderr).not.toMatch(/maxPets|ban\.threshold|enterpriseLimits|retryAfterFormat/);
  }
});

test("docs/fake.md's flag table lists every flag of --help", () => {
  // The guide's table is how a user finds a flag: one missing from it is a flag nobody uses.
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout;
  const flags = [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1] as string);
  expect(flags.length).toBeGreaterThan(20);
  const guide = readFileSync(new URL('../../../docs/fake.md', import.meta.url), 'utf8');
  const rows = guide.split('\n').filter((line) => line.startsWith('| `--'));
  const listed = new Set(
    rows.flatMap((row) => [...row.matchAll(/`(--[a-z-]+)/g)].map((m) => m[1])),
  );
  const missing = flags.filter(
    (flag) => !['--help', '--version'].includes(flag) && !listed.has(flag),
  );
  expect(missing).toEqual([]);
});

test('a corrupt state file stops the start naming the file and line, and is left as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
  const path = join(dir, 'state.jsonl');
  const text =
    '{"snapshot":{"pets":[],"nextId":1}}\n{}\n{"created":{"id":1,"name":"A","categoryId":1}}\n';
  writeFileSync(path, text);
  const result = spawnSync(
    process.execPath,
    [cli, '--port', '0', '--no-staging', '--state-file', path],
    { encoding: 'utf8', timeout: 15_000 },
  );
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(`state file ${path}, line 2:`);
  expect(result.stderr).not.toMatch(/TypeError|at .*\.ts:\d+/);
  expect(readFileSync(path, 'utf8')).toBe(text);
});

test('a state file that cannot be written stops the start with the reason, exit 2', () => {
  const result = spawnSync(
    process.execPath,
    [cli, '--port', '0', '--no-staging', '--state-file', '/nonexistent-dir/state.jsonl'],
    { encoding: 'utf8', timeout: 15_000 },
  );
  expect(result.status).toBe(2);
  expect(result.stderr).toBe(
    'petstore-fake: --state-file: cannot write /nonexistent-dir/state.jsonl: the folder /nonexistent-dir does not exist; pick a path in a folder that exists and is writable\n',
  );
});
