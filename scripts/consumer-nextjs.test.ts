/**
 * The Next.js guide (docs/nextjs.md, which the package ships) in a project that installed the
 * packed tarball with next, react and react-dom from this repository's lockfile
 * (consumer-project.ts): its install line, its two files written from its code blocks, `next
 * build` with no fake running, then its commands as written but on free ports (instead of 4010
 * and 3000): the page lists the fake's pets, a 429 forced over the control surface shows as the
 * page handles it, and the fake writes its Pact and coverage files when it stops. Telemetry is
 * off and the pages use no remote font, so nothing reaches the network.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { freePort } from '../test/support/fake-process.ts';
import {
  type ConsumerProject,
  createConsumerProject,
  projectEnvironment,
} from './consumer-project.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const guide = markdownSection(
  readFileSync(new URL('../docs/nextjs.md', import.meta.url), 'utf8'),
  'Next.js server code',
);
const blocks = fencedBlocks(guide);
const shellBlocks = blocks.filter((block) => block.lang === 'sh').map((block) => block.text);
const [installLine = '', buildLine = '', startLines = '', checkLines = ''] = shellBlocks;
const expectedOutput = blocks.find((block) => block.lang === 'text')?.text ?? '';

let project: ConsumerProject;
let background: ChildProcess | undefined;

/** The environment of the project's commands: this Node first on PATH, no vitest variables. */
function projectEnv(): NodeJS.ProcessEnv {
  return projectEnvironment(project.dir, /^NODE_ENV$|^NEXT_/);
}

/** Runs a shell block in the project with bash -e, never throwing. */
function bash(script: string) {
  const result = spawnSync('bash', ['-e', '-c', script], {
    cwd: project.dir,
    encoding: 'utf8',
    env: projectEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  return { code: result.status, stdout: result.stdout, out: `${result.stdout}${result.stderr}` };
}

/** Polls `url` until it answers at all, or fails after `ms`. */
async function answers(url: string, ms: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`consumer Next.js: nothing answered ${url} within ${ms} ms`);
}

/** Sends the background block's process group SIGTERM (the fake then writes its exit files). */
async function stopBackground(): Promise<void> {
  const child = background;
  background = undefined;
  if (child?.pid === undefined || child.exitCode !== null) return;
  const closed = once(child, 'close');
  process.kill(-child.pid, 'SIGTERM');
  await closed;
}

beforeAll(async () => {
  project = await createConsumerProject(['next', 'react', 'react-dom']);
  for (const block of blocks) {
    const file = exampleFileName(block);
    if (file === undefined) continue;
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), `${block.text}\n`);
  }
}, 180_000);

afterAll(async () => {
  await stopBackground();
  project?.remove();
});

test('the install line installs the versions this repository pins, and next build passes with no fake running and no network', () => {
  const pins = packageJson.devDependencies;
  expect(installLine).toBe(
    `npm install next@${pins.next} react@${pins.react} react-dom@${pins['react-dom']}`,
  );
  const install = bash(installLine);
  expect(install.code, install.out).toBe(0);
  expect(buildLine).toBe('NEXT_TELEMETRY_DISABLED=1 npx next build');
  const build = bash(buildLine);
  expect(build.code, build.out).toBe(0);
  // The home page is rendered per request (ƒ), so the build fetched nothing.
  expect(build.out).toMatch(/^[├┌└] ƒ \/$/m);
  expect(readFileSync(join(project.dir, 'app', 'page.jsx'), 'utf8')).not.toContain('next/font');
}, 240_000);

test('next start shows the fake’s pets, a 429 forced over the control surface shows as the page handles it, and the fake writes its Pact and coverage on SIGTERM', async () => {
  const [fakePort, appPort] = [String(await freePort()), String(await freePort())];
  const onPorts = (text: string) => text.replaceAll('4010', fakePort).replaceAll('3000', appPort);
  expect(startLines).toContain('--port 4010');
  expect(startLines).toContain('--port 3000');
  background = spawn('bash', ['-e', '-c', `${onPorts(startLines)}\nwait`], {
    cwd: project.dir,
    env: projectEnv(),
    stdio: 'ignore',
    detached: true, // its own process group, so one signal stops the fake and next start
  });
  await answers(`http://127.0.0.1:${fakePort}/v1/pets`, 30_000);
  await answers(`http://127.0.0.1:${appPort}/`, 60_000);
  const check = bash(onPorts(checkLines));
  expect(check.code, check.out).toBe(0);
  expect(check.stdout.trimEnd()).toBe(expectedOutput);
  await stopBackground();
  // The fake writes each exit file whole once the signal reached it.
  const pactFile = join(project.dir, 'pacts', 'web-app-petstore.json');
  const coverageFile = join(project.dir, 'interface-coverage.md');
  await expect
    .poll(() => existsSync(pactFile) && existsSync(coverageFile), { timeout: 15_000 })
    .toBe(true);
  const pact = JSON.parse(readFileSync(pactFile, 'utf8'));
  expect(JSON.stringify(pact.interactions)).toContain('GET /pets?limit');
  const coverage = readFileSync(coverageFile, 'utf8');
  expect(coverage).toMatch(/^\| `listPets 200` [^|]+\| exercised \|/m);
  expect(coverage).toMatch(/^\| `listPets 429` [^|]+\| exercised \|/m);
}, 180_000);

test('with PETSTORE_IN_PROCESS=1 the guide’s instrumentation.js answers the page from msw in the server’s process, with nothing listening at PETSTORE_URL', async () => {
  expect(readFileSync(join(project.dir, 'instrumentation.js'), 'utf8')).toContain(
    "process.env.PETSTORE_IN_PROCESS === '1'",
  );
  // A port nothing listens on: only an answer from inside the server can list pets.
  const [apiPort, appPort] = [String(await freePort()), String(await freePort())];
  background = spawn('npx', ['next', 'start', '--hostname', '127.0.0.1', '--port', appPort], {
    cwd: project.dir,
    env: {
      ...projectEnv(),
      NEXT_TELEMETRY_DISABLED: '1',
      PETSTORE_IN_PROCESS: '1',
      PETSTORE_URL: `http://127.0.0.1:${apiPort}/v1`,
    },
    stdio: 'ignore',
    detached: true,
  });
  await answers(`http://127.0.0.1:${appPort}/`, 60_000);
  const page = await (await fetch(`http://127.0.0.1:${appPort}/`)).text();
  expect(page.match(/<li>[^<]*<\/li>/g)?.slice(0, 2)).toEqual([
    '<li>Max the dog</li>',
    '<li>Ziggy the rabbit</li>',
  ]);
  await expect(fetch(`http://127.0.0.1:${apiPort}/v1/pets`)).rejects.toThrow();
  await stopBackground();
}, 120_000);
