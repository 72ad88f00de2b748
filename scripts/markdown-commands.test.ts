/**
 * The shell commands of the repository's quick start (CONTRIBUTING.md), run as written: `npm
 * install`, then `npm start` in the background, on free ports given with its documented flags
 * (the quick start's 4010 and 4011 may be taken on a shared machine), then every curl line
 * against it, with each command's output held against the comment written under it. And `npm
 * run demo`, which the quick start names, serves the page at the URL it prints. The shipped
 * guides' commands, which are a package user's, run in shipped-docs-commands.test.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from '../mock/cli/fake-process.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';
import { runShellBlock, type ShellStep, shellCommands } from './shell-block.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');
const quickStart = fencedBlocks(markdownSection(contributing, 'Quick start')).filter(
  (block) => block.lang === 'sh',
);

/** `npm test` runs this file: running it from here would never end. */
const notRunHere = new Set(['npm test']);

const started: ChildProcess[] = [];
let port = 0;
let stagingPort = 0;

/** Starts a command in its own process group, so the group can be stopped whole. */
function startInBackground(command: string, args: readonly string[]): ChildProcess {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  return child;
}

/** Resolves with the output so far once it matches `pattern`; throws when the process exits. */
async function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  let text = '';
  child.stdout?.on('data', (chunk) => (text += chunk));
  child.stderr?.on('data', (chunk) => (text += chunk));
  for (let waited = 0; !pattern.test(text); waited += 100) {
    if (child.exitCode !== null || waited > 90_000)
      throw new Error(`${child.spawnargs.join(' ')} did not print ${pattern}:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return text;
}

/** A command without its trailing `# comment`. */
function withoutComment(command: string): string {
  return command.replace(/\s+#.*$/, '');
}

/** The README's text with its ports replaced by this run's. */
function onThisRunsPorts(text: string): string {
  return text.replaceAll(':4010', `:${port}`).replaceAll(':4011', `:${stagingPort}`);
}

/** Checks each step against the comment under it: literal output, or error codes it names. */
function expectAsDocumented(steps: readonly ShellStep[]): void {
  for (const step of steps) {
    expect(step.status, `${step.command}\n${step.output}`).toBe(0);
    for (const comment of step.expectation) {
      // "200 200 200 429   (the 429 says ...)" or "HTTP/1.1 200 OK": output, then an aside.
      const literal = /^((?:\d{3} ?)+|HTTP\/\S+ \d{3}.*?)(?:\s{2,}\(.*)?$/.exec(comment)?.[1];
      if (literal !== undefined) expect(step.output.trim(), step.command).toBe(literal.trim());
      // "four more rate_limited, then temporarily_banned": every error code named is printed.
      for (const code of comment.match(/\b[a-z]+_[a-z_]+\b/g) ?? [])
        expect(step.output, `${step.command}: ${comment}`).toContain(`"code":"${code}"`);
    }
    // curl exits 0 on an error answer too: an Error body the README does not show is a failure.
    const shown = step.expectation.join(' ');
    for (const [, code] of step.output.matchAll(/"code":"(\w+)"/g))
      expect(shown, `${step.command} answered ${step.output}`).toContain(code);
  }
}

beforeAll(async () => {
  port = await freePort();
  stagingPort = await freePort();
}, 10_000);

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    const exited = once(child, 'exit');
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
});

test('the quick start has two command blocks: install, start and test, then curl lines', () => {
  // A new block here needs a way to run it in this file first.
  expect(quickStart).toHaveLength(2);
  const [start, curls] = quickStart;
  expect(shellCommands(start?.text ?? '').map(({ command }) => withoutComment(command))).toEqual([
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
  const [first] = shellCommands(start?.text ?? '');
  const [install, launch] = withoutComment(first?.command ?? '').split(' && ');
  expect(launch).toBe('npm start');

  // npm install as written; offline, since everything it needs is already here.
  const installed = spawnSync('bash', ['-c', install ?? ''], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true' },
  });
  expect(installed.status, `${installed.stdout}${installed.stderr}`).toBe(0);

  const npmStart = startInBackground('bash', [
    '-c',
    `${launch} -- --port ${port} --staging-port ${stagingPort}`,
  ]);
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
  const demo = startInBackground('npm', ['run', 'demo', '--', '--port', String(demoPort)]);
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
