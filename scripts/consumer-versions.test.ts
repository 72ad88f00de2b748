/**
 * Versions that cannot pass silently, in a user's project: the packed tarball, the README's
 * vitest files ("In your tests"), and npm on the machine's Node 20, where `npm install
 * --save-dev vitest` picks vitest 4.1 (vitest 5's `engines` want Node 22.12). vitest 4.1 prints
 * an error thrown in a globalSetup teardown as `error during close` and exits 0, so the README's
 * coverage gate would pass there. The package's optional peer range stops npm from adding it to
 * such a project; past that (`--legacy-peer-deps`, which many projects set in .npmrc) the helpers
 * refuse that vitest, and Node 20, with one line saying what to install, and the run fails. The
 * README's install line (`vitest@^5.1.1`) then makes the same project pass on Node 24. On Node 20
 * both bins, every subcommand, refuse in one line (exit 2) before loading anything. The tests
 * run in order on one project, as a user would go. Packages come from the npm cache where it has
 * them, else from the registry.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packPackage } from './consumer-project.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const docs = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');
const guide = docs('tests.md');
/** An install line for a project (`# in your project`), the tarball's path left to fill in. */
const installLineOf = (markdown: string) =>
  fencedBlocks(markdown)
    .flatMap((block) => block.text.split('\n'))
    .find((line) => line.includes('# in your project'))
    ?.replace(/\s+#.*$/, '') ?? '';
/** The README's set-up line, which the install guide repeats word for word. */
const installLine = installLineOf(markdownSection(readme, 'Set up'));

/** PATH without this repository's bins (whose `node` is Node 24) and without this Node's folder. */
const userPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((entry) => !entry.startsWith(root) && entry !== dirname(process.execPath));

/** The first `node` on the user's PATH older than 22: the machine's Node 20. */
function findOldNode(): string {
  for (const dir of userPath) {
    const node = join(dir, 'node');
    try {
      accessSync(node, constants.X_OK);
    } catch {
      continue;
    }
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (/^v(1\d|2[01])\./.test(version)) return node;
  }
  throw new Error(
    `consumer versions: no Node.js older than 22 on PATH (${userPath.join(delimiter)}); this test needs the machine's Node 20`,
  );
}

let work: string;
let dir: string;
let tarball: string;
let oldNode: string;

/** Runs `command` in the project with `node` (and so npm) from `nodeDir` first on PATH. */
function run(nodeDir: string, command: string, args: readonly string[]) {
  const result = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          ([name]) => !/^VITEST|^FORCE_COLOR$|^NODE_ENV$/.test(name),
        ),
      ),
      PATH: [nodeDir, join(dir, 'node_modules', '.bin'), ...userPath].join(delimiter),
      NO_COLOR: '1',
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 240_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

const installedVitest = () =>
  (
    JSON.parse(readFileSync(join(dir, 'node_modules', 'vitest', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
const vitestOn = (node: string) =>
  run(dirname(node), node, [join('node_modules', 'vitest', 'vitest.mjs'), 'run']);

beforeAll(async () => {
  oldNode = findOldNode();
  work = mkdtempSync(join(tmpdir(), 'petstore-versions-'));
  tarball = join(work, (await packPackage(work)).filename);
  dir = join(work, 'app');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'versions-app', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const block of fencedBlocks(guide)) {
    const file = exampleFileName(block);
    if (file === undefined || !/\.ts$/.test(file)) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${block.text}\n`);
  }
  // An app on Node 20 that already tests with vitest, added without a version.
  const vitest = run(dirname(oldNode), 'npm', ['install', '--save-dev', 'vitest']);
  if (vitest.code !== 0) throw new Error(`consumer versions: npm install failed:\n${vitest.out}`);
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

test('on Node 20, npm picks vitest 4 for an unpinned `vitest`, and then refuses to add the fake for its peer range', () => {
  expect(run(dirname(oldNode), oldNode, ['--version']).out).toMatch(/^v20\./);
  expect(installedVitest()).toMatch(/^4\./);
  const refused = run(dirname(oldNode), 'npm', ['install', '--save-dev', tarball, 'msw']);
  expect(refused.out).toContain('ERESOLVE');
  expect(refused.out).toMatch(/peerOptional vitest@"\^5\.0\.0" from petstore-fake@0\.1\.0/);
  expect(refused.code).not.toBe(0);
  // As many projects do (legacy-peer-deps in .npmrc): npm installs it beside vitest 4.
  const forced = run(dirname(oldNode), 'npm', [
    'install',
    '--save-dev',
    '--legacy-peer-deps',
    tarball,
    'msw',
  ]);
  expect(forced.code, forced.out).toBe(0);
  expect(installedVitest()).toMatch(/^4\./);
}, 300_000);

test('on Node 20 every command of both bins refuses in one line saying what to install, exit 2, no stack trace', () => {
  // Each bin's entry checks the version before it loads its CLI (scripts/build-package.ts): on
  // Node 20 the CLI would crash in msw (petstore-fake), call it an internal error (--fake), or
  // run and round int64 digits (JSON.parse's reviver has no source text before Node 21).
  const commands: readonly (readonly string[])[] = [
    ['petstore-fake'],
    ['petstore-fake', '--help'],
    ['petstore-fake', '--port', '0'],
    ['petstore-contract', '--fake'],
    ['petstore-contract', '--base-url', 'http://127.0.0.1:9/v1'],
    ['petstore-contract', '--version'],
    ['petstore-contract', 'proxy', '--target', 'http://127.0.0.1:9/v1', '--', 'true'],
    ['petstore-contract', 'verify-pact', 'pacts/app.json'],
    ['petstore-contract', 'calibrate', '--base-url', 'http://127.0.0.1:9/v1'],
  ];
  for (const [bin = '', ...args] of commands) {
    const refused = run(dirname(oldNode), oldNode, [join('node_modules', '.bin', bin), ...args]);
    const label = [bin, ...args].join(' ');
    expect(refused.out, label).toMatch(
      new RegExp(
        `^${bin} needs Node\\.js 22\\.12\\.0 or later, and this is 20\\.\\d+\\.\\d+: put Node\\.js 22\\.12\\+ first on PATH \\(nvm, fnm, Volta\\), or \`npm install --save-dev node@24\` so that npm scripts run on it\\.\n$`,
      ),
    );
    expect(refused.code, label).toBe(2);
  }
  // The same bins run on a supported Node.js.
  const version = run(dirname(process.execPath), process.execPath, [
    join('node_modules', '.bin', 'petstore-contract'),
    '--version',
  ]);
  expect(version.out).toBe('petstore-contract 0.1.0\n');
}, 120_000);

test("--prism-mock in a project without Prism says the package user's install command", () => {
  // The project installed the package and msw, not Prism (the repository's devDependency only).
  const run24 = run(dirname(process.execPath), process.execPath, [
    join('node_modules', '.bin', 'petstore-contract'),
    '--prism-mock',
  ]);
  expect(run24.out).toContain(
    'petstore-contract: Prism is not installed: npm install --save-dev @stoplight/prism-cli',
  );
  expect(run24.out).not.toContain('devDependency');
  expect(run24.out).not.toMatch(/^\s+at /m);
  expect(run24.code).toBe(2);
}, 60_000);

/** The one line the suite's globalSetup (`expectSupportedRuntime()`, docs/tests.md) says on Node 20. */
const node20Line =
  /petstore-fake: the suite \(petstore-fake\/qa\) needs Node\.js 22\.12\.0 or later, and this is 20\.\d+\.\d+: put Node\.js 22\.12\+ first on PATH \(nvm, fnm, Volta\), or `npm install --save-dev node@24` so that npm scripts run on it\./;

test('on Node 20 the suite fails, and says in one line which Node.js to install', () => {
  const suite = vitestOn(oldNode);
  expect(suite.out).toMatch(node20Line);
  expect(suite.code).toBe(1);
}, 120_000);

test("on Node 24 with the vitest npm picked on Node 20, the suite's setup fails the run before any test, saying which vitest to install", () => {
  const suite = vitestOn(process.execPath);
  expect(suite.out).toContain(
    `petstore-fake: the suite (petstore-fake/qa) needs vitest ^5.0.0, and this is vitest ${installedVitest()}, which lets an error thrown in a globalSetup teardown pass with exit code 0: npm install --save-dev vitest@^5.1.1 (on Node.js 22.12.0+).`,
  );
  expect(suite.out).not.toMatch(/Tests\s+\d+ passed/);
  expect(suite.code).toBe(1);
}, 120_000);

test("after the README's install line, run as written on Node 20, the same project passes on Node 24", () => {
  expect(installLine).toMatch(
    /^npm install --save-dev \/path\/to\/petstore-fake-0\.1\.0\.tgz .*vitest@\^5\.1\.1/,
  );
  expect(installLineOf(markdownSection(docs('install.md'), 'Install'))).toBe(installLine);
  const [command = '', ...args] = installLine
    .replace('/path/to/petstore-fake-0.1.0.tgz', tarball)
    .split(' ');
  const install = run(dirname(oldNode), command, args);
  expect(install.code, install.out).toBe(0);
  expect(installedVitest()).toMatch(/^5\./);
  const suite = vitestOn(process.execPath);
  // Every test of the guide's test files.
  const count = fencedBlocks(guide)
    .filter((block) => exampleFileName(block)?.endsWith('.test.ts'))
    .reduce((sum, block) => sum + (block.text.match(/^test\(/gm)?.length ?? 0), 0);
  expect(count).toBeGreaterThan(5);
  expect(suite.out).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
  expect(suite.out).not.toMatch(/petstore-fake: \w+ needs/);
  expect(suite.code).toBe(0);
  expect(readFileSync(join(dir, 'interface-coverage.md'), 'utf8')).toMatch(/exercised/);
}, 300_000);

test("on Node 20 with vitest 5 (the install line's), the suite says which Node.js to install before vitest crashes, and blames no setup file", () => {
  // vitest 5 on Node 20 crashes inside itself (`Map.groupBy is not a function`), and the suite's
  // teardown would then say `no test file wrote a part: is ./vitest.petstore-part.ts in
  // setupFiles?`. The globalSetup's `setup` runs first and says the one line instead.
  expect(installedVitest()).toMatch(/^5\./);
  const suite = vitestOn(oldNode);
  expect(suite.out).toMatch(node20Line);
  expect(suite.out).not.toMatch(/no test file wrote a part/);
  expect(suite.code).not.toBe(0);
}, 120_000);
