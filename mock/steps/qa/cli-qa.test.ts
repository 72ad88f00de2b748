/**
 * `npm start` for QA, as a child process on a real port: `--chaos` (inline JSON or a file),
 * the client report's summary printed on exit and written by `--client-report`, and bad values
 * of both flags refused at start (exit 2) naming the flag.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import {
  cliPath,
  freePort,
  startFakeProcess,
  stopFakeProcesses,
} from '../../../test/support/fake-process.ts';
import type { ClientReport } from './client-report/client-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-qa-cli-'));
afterEach(stopFakeProcesses);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('--chaos answers seeded chaos; on SIGTERM the client report is printed and written to --client-report', async () => {
  const port = await freePort();
  const reportFile = join(dir, 'clients.json');
  const chaosFile = join(dir, 'chaos.json');
  // Every listPets answer of the Free key is a 503 asking for 2 s.
  writeFileSync(
    chaosFile,
    JSON.stringify({
      seed: 7,
      rules: [
        { operationId: 'listPets', keyId: 'demo-free', errors: { '503': 1 }, retryAfterSeconds: 2 },
      ],
    }),
  );
  const { child, output } = await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--chaos',
    chaosFile,
    '--client-report',
    reportFile,
    // The app is one copy: Node's fetch may spread its three tries over two sockets, which
    // alone could be two copies; declared, every early try is early.
    '--client-copies',
    'one',
  ]);
  const headers = { Authorization: 'Bearer free-demo-key', 'X-Client-Id': 'impatient-app' };
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/pets`, { headers });
    expect(await res.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(res.headers.get('Retry-After')).toBe('2');
    statuses.push(res.status);
  }
  expect(statuses).toEqual([503, 503, 503]);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  expect((await exited)[0]).toBe(0);

  const printed = output();
  expect(printed).toContain('Client report (Limits, rule 2: Retry-After and exponential backoff):');
  expect(printed).toContain('  demo-free  impatient-app  FAIL  3 requests, 3 failures answered');
  expect(printed).toMatch(/ {4}- Retry-After: 2 request\(s\) came before Retry-After elapsed/);
  expect(printed).toContain(`petstore-fake: client report written to ${reportFile}`);
  // The banner lists the demo keys; nothing after it may.
  expect(printed.slice(printed.indexOf('SIGTERM'))).not.toContain('free-demo-key');
  expect(printed).toContain(`  qa page     http://127.0.0.1:${port}/__control/`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ClientReport;
  expect(report.clients).toHaveLength(1);
  expect(report.clients[0]).toMatchObject({
    keyId: 'demo-free',
    clientId: 'impatient-app',
    verdict: 'fail',
    chaosAnswers: 3,
    failures: { '503': 3 },
  });
  expect(readFileSync(reportFile, 'utf8')).not.toContain('free-demo-key');
});

test('--chaos inline; a wrong --chaos or an unwritable --client-report stops the start with exit 2', async () => {
  const port = await freePort();
  await startFakeProcess([
    '--port',
    String(port),
    '--no-staging',
    '--quiet',
    '--chaos',
    '{"seed":1,"rules":[{"operationId":"getPet","errors":{"504":1}}]}',
  ]);
  const res = await fetch(`http://127.0.0.1:${port}/v1/pets/1`, {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  expect(res.status).toBe(504);
  const cases: [string[], string][] = [
    [
      ['--chaos', '{"seed":1,"rules":[{"drop":2}]}'],
      '--chaos rules[0].drop must be a share from 0 to 1, got 2',
    ],
    [['--chaos', '{"seed":1'], '--chaos: not valid JSON'],
    [['--chaos', join(dir, 'missing.json')], '--chaos: cannot read'],
    [['--client-report', join(dir, 'no-such-dir', 'r.json')], '--client-report: cannot write'],
  ];
  for (const [args, message] of cases) {
    const result = spawnSync(process.execPath, [cliPath, '--port', '0', '--no-staging', ...args], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr).toContain(`petstore-fake: ${message}`);
  }
});
