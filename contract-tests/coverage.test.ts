/**
 * Interface coverage from the harness's side, run as a user runs it (the CLI in a child
 * process): `--coverage <file>` on a run says what the run exercised and what it skipped and
 * why; the proxy's `--coverage <file>` says what the traffic through it exercised, and never
 * holds the key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, expect, test } from 'vitest';
import type { CoverageRecord } from '../mock/internal/entry.ts';
import { runCli } from '../test/support/contract-cli-process.ts';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const cliPath = new URL('./cli.ts', import.meta.url).pathname;
const ajv = new Ajv2020({ allErrors: true, strictRequired: false });
addFormats.default(ajv);
const validate = ajv.compile(JSON.parse(readFileSync('docs/coverage.schema.json', 'utf8')));
const dir = mkdtempSync(join(tmpdir(), 'contract-coverage-'));
const item = (record: CoverageRecord, id: string) => record.items.find((each) => each.id === id);

const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
});

test('--coverage: a read-only run says what it exercised, by which check, and what it skipped and why', async () => {
  const file = join(dir, 'run.json');
  const run = await runCli([
    '--fake',
    '--read-only',
    '--seed',
    '5',
    '--runs',
    '5',
    '--coverage',
    file,
  ]);
  expect(run.code, run.stderr).toBe(0);
  const record = JSON.parse(readFileSync(file, 'utf8')) as CoverageRecord;
  expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
  expect(record.source).toBe('harness');
  expect(run.stdout).toContain(
    `petstore-contract: interface coverage: ${record.summary.exercised} of 22 items exercised, ${record.summary.skipped} skipped, ${record.summary.notExercised} not exercised (${file})`,
  );
  // What it really sent, credited to the check that sent it; the key by its variable's name.
  expect(item(record, 'listPets 200')?.first).toMatchObject({
    keyId: 'PETSTORE_API_KEY',
    checkId: 'preflight',
  });
  expect(item(record, 'getPet 404')).toMatchObject({
    status: 'exercised',
    first: { checkId: 'getPet.notFound' },
  });
  expect(item(record, 'auth.challenge')?.by.map((sender) => sender.checkId)).toContain(
    'auth.missingKey',
  );
  // What it skipped, and why: writes off, no --rate-limits, and what no check sends.
  expect(item(record, 'createPet 201')).toMatchObject({
    status: 'skipped',
    reason: expect.stringContaining(
      'createPet.created: not-selected: writes are off (--read-only)',
    ),
  });
  expect(item(record, 'listPets 429')).toMatchObject({
    status: 'skipped',
    reason: expect.stringContaining('--rate-limits'),
  });
  expect(item(record, 'limits.ban')).toMatchObject({
    status: 'skipped',
    reason: 'no check of the harness sends it; only traffic can show it',
  });
});

test('--coverage with --rate-limits exercises the 429 and the retry after Retry-After; an unwritable path stops the run first', async () => {
  const file = join(dir, 'rate.ctrf.json');
  const run = await runCli([
    '--fake',
    '--rate-limits',
    '--only',
    'rateLimit.',
    '--seed',
    '3',
    '--coverage',
    file,
  ]);
  expect(run.code, run.stderr).toBe(0);
  const ctrf = JSON.parse(readFileSync(file, 'utf8')) as {
    results: { summary: { tests: number }; tests: { name: string; status: string }[] };
  };
  expect(ctrf.results.summary.tests).toBe(22);
  const status = (name: string) => ctrf.results.tests.find((t) => t.name === name)?.status;
  expect(status('listPets 429')).toBe('passed');
  expect(status('limits.retryAfter')).toBe('passed');
  expect(status('limits.retryAfterHonoured')).toBe('passed');

  const refused = await runCli(['--fake', '--coverage', join(dir, 'missing', 'x.json')]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('--coverage');
  expect(refused.stdout).not.toContain('passed');
});

test('the proxy --coverage says what the traffic through it exercised, per hashed key, and never holds the key', async () => {
  const key = 'enterprise-demo-key';
  const target = await httpFakeTarget({ virtualTime: false, apiKey: key });
  open.push(target);
  const file = join(dir, 'proxy.md');
  const { PETSTORE_API_KEY: _, ...env } = process.env;
  const child: ChildProcess = spawn(
    process.execPath,
    [cliPath, 'proxy', '--target', target.baseUrl, '--port', '0', '--coverage', file],
    { env },
  );
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  for (let waited = 0; !/proxy: http:\/\/127\.0\.0\.1:\d+\/v1 -> /.test(stdout); waited += 50) {
    if (waited > 20_000) throw new Error(`no banner: ${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const base = /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) -> /.exec(stdout)?.[1] as string;
  const auth = { Authorization: `Bearer ${key}` };
  expect((await fetch(`${base}/pets?status=sold`, { headers: auth })).status).toBe(200);
  expect((await fetch(`${base}/pets/0`, { headers: auth })).status).toBe(404);
  expect((await fetch(`${base}/pets?api_key=${key}`)).status).toBe(401);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  expect(stdout).toContain(
    `petstore-contract proxy: interface coverage: 10 of 22 items exercised, 0 skipped, 12 not exercised (${file})`,
  );
  const markdown = readFileSync(file, 'utf8');
  expect(markdown).toContain('## Interface coverage (proxy)');
  expect(markdown).toMatch(
    /\| `getPet 404` GET \/pets\/\{petId\} answered 404 \| exercised \| 1 \| GET \/v1\/pets\/0 404 \(key [0-9a-f]{16}\) \|/,
  );
  expect(markdown).toContain(
    '| `createPet 201` POST /pets answered 201 | **not exercised** | 0 |  |',
  );
  expect(markdown).not.toContain(key);
});
