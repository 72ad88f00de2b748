/**
 * The shell commands of the repository's quick start (CONTRIBUTING.md), run as written: the
 * redis-server line (which names the one on PATH, or installs Debian's), `npm install`, then
 * `npm start` in the background, on free ports given with its documented flags (the quick
 * start's 4010 and 4011 may be taken on a shared machine), then every curl line
 * against it, with each command's output held against the comment written under it. And `npm
 * run demo`, which the quick start names, serves the page at the URL it prints. The shipped
 * guides' commands, which are a package user's, run in shipped-docs-commands.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../test/support/fake-process.ts';
import {
  backgroundCommands,
  expectAsDocumented,
  waitForOutput,
  withoutComment,
} from './doc-commands.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';
import { runShellBlock, shellCommands } from './shell-block.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');
const quickStart = fencedBlocks(markdownSection(contributing, 'Quick start')).filter(
  (block) => block.lang === 'sh',
);

/** `npm test` runs this file: running it from here would never end. */
const notRunHere = new Set(['npm test']);

const background = backgroundCommands();
let port = 0;
let stagingPort = 0;

/** The quick start's text with its ports replaced by this run's. */
function onThisRunsPorts(text: string): string {
  return text.replaceAll(':4010', `:${port}`).replaceAll(':4011', `:${stagingPort}`);
}

beforeAll(async () => {
  port = await freePort();
  stagingPort = await freePort();
}, 10_000);

afterAll(() => background.stop());

test('the quick start has two command blocks: redis-server, install, start and test, then curl lines', () => {
  // A new block here needs a way to run it in this file first.
  expect(quickStart).toHaveLength(2);
  const [start, curls] = quickStart;
  expect(shellCommands(start?.text ?? '').map(({ command }) => withoutComment(command))).toEqual([
    'command -v redis-server || (apt-get update && apt-get install -y redis-server)',
    'npm install && npm start',
    'npm test',
  ]);
  expect(notRunHere.has('npm test')).toBe(true);
  const curlCommands = shellCommands(curls?.text ?? '');
  expect(curlCommands.length).toBeGreaterThan(0);
  for (const { command } of curlCommands) expect(command).toMatch(/^curl /);
});

test('the quick start commands run as written: npm install, npm start, and its curl lines answer', async () => {
  const [start, curls] = quickStart;
  const [redisServer, first] = shellCommands(start?.text ?? '');
  // As written: where redis-server is on PATH (the replica tests need it) it only names it.
  const found = spawnSync('bash', ['-c', withoutComment(redisServer?.command ?? '')], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(found.status, `${found.stdout}${found.stderr}`).toBe(0);
  expect(found.stdout).toMatch(/\/redis-server\n$/);
  const [install, launch] = withoutComment(first?.command ?? '').split(' && ');
  expect(launch).toBe('npm start');

  // npm install as written; offline, since everything it needs is already here.
  const installed = spawnSync('bash', ['-c', install ?? ''], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true' },
  });
  expect(installed.status, `${installed.stdout}${installed.stderr}`).toBe(0);

  const npmStart = background.start(
    `${launch} -- --port ${port} --staging-port ${stagingPort}`,
    root,
  );
  const banner = await waitForOutput(npmStart, new RegExp(`127\\.0\\.0\\.1:${stagingPort}/v1`));
  expect(banner).toContain(`http://127.0.0.1:${port}/v1`);

  const steps = runShellBlock(onThisRunsPorts(curls?.text ?? ''), process.env, root);
  expect(steps).toHaveLength(2);
  expectAsDocumented(steps);
  const [listed, created] = steps.map((step) => JSON.parse(step.output));
  expect(listed).toHaveLength(2);
  for (const pet of listed) expect(pet.status).toBe('sold');
  expect(created).toMatchObject({ name: 'Nemo', categoryId: 3, status: 'available' });
  expect(typeof created.id).toBe('number');
}, 120_000);

test('npm run demo builds the demo page and serves it at the URL it prints', async () => {
  const demoPort = await freePort();
  const demo = background.start(`npm run demo -- --port ${demoPort}`, root);
  const output = await waitForOutput(demo, /demo at (http:\/\/\S+)/);
  const url = /demo at (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  expect(url).toBe(`http://127.0.0.1:${demoPort}/`);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('demo.js');
  for (const asset of ['demo.js', 'mockServiceWorker.js']) {
    const res = await fetch(new URL(asset, url));
    expect(res.status, asset).toBe(200);
    expect(res.headers.get('content-type'), asset).toMatch(/javascript/);
  }
}, 60_000);
