/**
 * The fetch-only door rebuilds msw's request handling on `msw/experimental`, which a minor msw
 * release may change without a word: msw-upgrade-probe.ts checks what the door takes from msw,
 * here against the pinned msw and, in a project of its own, against the newest msw 3 on npm.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as msw from 'msw';
import { expect, test } from 'vitest';
import { setupFetchServer } from './fetch-only-server.ts';
import { missingFrom, probeMsw } from './msw-upgrade-probe.ts';

test('the pinned msw gives the fetch-only door what it builds on, and the door answers as setupServer does', async () => {
  expect(await probeMsw()).toEqual({ version: expect.stringMatching(/^3\./), problems: [] });
});

test('what changed is named: an export or a method gone, a behaviour that differs from setupServer', async () => {
  const gone = missingFrom([
    {
      module: 'msw',
      exports: { ...msw, getResponse: undefined },
      name: 'getResponse',
      usedFor: 'the fast path’s answer',
    },
    {
      module: 'msw/node',
      exports: { AsyncHandlersController: class {} },
      name: 'AsyncHandlersController',
      methods: ['boundary'],
      usedFor: 'server.boundary()',
    },
  ]);
  expect(gone).toEqual([
    'msw no longer exports getResponse (the fast path’s answer)',
    "msw/node's AsyncHandlersController has no method boundary (server.boundary())",
  ]);
  // A door whose use() does nothing: the probe says which case and what each gave.
  const deaf: typeof setupFetchServer = (...handlers) => ({
    ...setupFetchServer(...handlers),
    use: () => {},
  });
  const { problems } = await probeMsw(deaf);
  expect(problems).toEqual([
    'fast path: server.use() overrides: setupServer gives "200 []", the fetch-only door "200 [{"id":1}]"',
    'frame path (life-cycle listeners): server.use() overrides: setupServer gives "200 []", the fetch-only door "200 [{"id":1}]"',
  ]);
});

test('the newest msw 3 on npm gives the fetch-only door what it builds on', () => {
  const project = mkdtempSync(join(tmpdir(), 'petstore-msw-upgrade-'));
  try {
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'msw-upgrade-probe', private: true, type: 'module' }),
    );
    // msw's own dependencies (the interceptors, rettime) come with it, at the versions it wants.
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', 'msw@3'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(install.status, `npm install msw@3 failed:\n${install.stderr}`).toBe(0);
    for (const file of ['fetch-only-server.ts', 'fetch-fast-path.ts', 'msw-upgrade-probe.ts'])
      copyFileSync(join(import.meta.dirname, file), join(project, file));
    const run = spawnSync(process.execPath, ['msw-upgrade-probe.ts'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    console.log(`msw-upgrade: probed msw ${result.version}`);
    expect(result).toEqual({ version: expect.stringMatching(/^3\./), problems: [] });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}, 240_000);
