/**
 * Every entry file can be imported without starting anything: the CLIs start only
 * when run as the main module or called by their bin, so a test or a tool may import them for
 * what they export.
 */
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

const entries = [
  'mock/doors/cli/cli.ts',
  'contract-tests/cli.ts',
  'mock/index.ts',
  'mock/qa.ts',
  'mock/doors/node/node.ts',
  'mock/doors/connect/connect-fake.ts',
];

test('importing each entry file prints nothing, listens on nothing and leaves the process to end', () => {
  const script = `for (const entry of ${JSON.stringify(entries)}) await import('./' + entry);
console.log('imported ' + ${entries.length} + ' entries');`;
  // A CLI that started would print its banner or usage, or keep the process alive listening.
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('..', import.meta.url),
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, PETSTORE_API_KEY: '' },
  });
  expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({
    status: 0,
    signal: null,
    stderr: '',
  });
  expect(run.stdout).toBe(`imported ${entries.length} entries\n`);
});

test('run as the main module, each CLI still starts: its --version answers', () => {
  for (const cli of ['mock/doors/cli/cli.ts', 'contract-tests/cli.ts']) {
    const run = spawnSync(process.execPath, [cli, '--version'], {
      cwd: new URL('..', import.meta.url),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect({ cli, status: run.status }).toEqual({ cli, status: 0 });
    expect(run.stdout, cli).toMatch(/\d+\.\d+\.\d+/);
  }
});
