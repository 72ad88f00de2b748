/**
 * The documentation the package ships, read where a user reads it: the packed tarball installed
 * in a project (consumer-project.ts). Every relative link of every shipped Markdown file
 * resolves inside the installed package (a `#fragment` to a heading of its file); package.json
 * names a repository; no shipped file gives a command of the package's own repository (its npm
 * scripts, its source files run by path), and the packed README has no "Working on this
 * repository"; every shell block and workflow of a shipped file is
 * run as written by a test named here, which reads that file's section; and every function of
 * `fake.control` is named in the QA guide.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createFake } from '../mock/core/fake.ts';
import packageJson from '../package.json' with { type: 'json' };
import { type ConsumerProject, createConsumerProject } from './consumer-project.ts';
import { fencedBlocks } from './markdown-blocks.ts';
import { linkProblem, links } from './markdown-links.ts';
import { repositorySection } from './packed-manifest.ts';

const root = new URL('..', import.meta.url).pathname;
let project: ConsumerProject;
/** The installed package: exactly what the tarball holds. */
let installed = '';
let shippedMarkdown: string[] = [];

beforeAll(async () => {
  project = await createConsumerProject();
  installed = join(project.dir, 'node_modules', 'petstore-fake');
  shippedMarkdown = project.packedFiles.filter((file) => file.endsWith('.md'));
}, 180_000);

afterAll(() => project?.remove());

test('the tarball ships the README, the harness map and every guide they link', () => {
  expect(shippedMarkdown).toEqual(
    expect.arrayContaining([
      'README.md',
      'contract-tests/README.md',
      'docs/browser.md',
      'docs/qa.md',
      'docs/harness/ci.md',
    ]),
  );
  expect(project.packedFiles).toContain('docs/qa-page.png');
  // The repository's own guide is not the package's.
  expect(project.packedFiles).not.toContain('CONTRIBUTING.md');
});

test('every relative link of every shipped Markdown file resolves inside the installed package', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of shippedMarkdown) {
    const path = join(installed, file);
    for (const target of links(readFileSync(path, 'utf8'))) {
      checked += 1;
      const why = linkProblem(installed, path, target);
      if (why !== undefined)
        broken.push(`${file}: (${target}) ${why.replace(installed, 'the package')}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(50);
});

test('the link check of the tarball catches a link to a file the package does not ship', () => {
  const readme = join(installed, 'README.md');
  expect(linkProblem(installed, readme, 'CONTRIBUTING.md')).toBe('does not exist');
  expect(linkProblem(installed, readme, 'mock/doors/browser/README.md')).toBe('does not exist');
  expect(linkProblem(installed, readme, 'docs/qa.md#no-such-heading')).toMatch(/no heading/);
  expect(linkProblem(installed, readme, 'docs/qa.md#the-live-qa-page')).toBeUndefined();
});

test('package.json names a repository: the placeholder the install guide explains', () => {
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  expect(manifest.repository).toEqual(packageJson.repository);
  expect(manifest.repository.type).toBe('git');
  const url = manifest.repository.url as string;
  expect(url).toMatch(/^git\+https:\/\/[^/]+\.invalid\/.+\.git$/);
  expect(readFileSync(join(installed, 'docs', 'install.md'), 'utf8')).toContain(`\`${url}\``);
});

/** Commands of the package's own repository, which a user's project does not have. */
const repositoryCommands = [
  ...Object.keys(packageJson.scripts)
    // A user's project has its own `build` and `test`; the guides may say `npm test` of its.
    .filter((script) => !['build', 'test'].includes(script))
    .map((script) =>
      script === 'start' ? /\bnpm start\b/ : new RegExp(`\\bnpm run ${script}\\b`),
    ),
  /\bnode (contract-tests|mock|scripts|bench)\//,
  /node_modules\/\.bin\/node\b/,
  /\bnpx vitest run (mock|contract-tests|scripts|bench)\//,
  /\bUPDATE_SCREENSHOT=/,
];

test("no shipped file gives a command of the package's own repository, nor the README its section on working on the repository", () => {
  // The repository's README has the section; the packed one does not (packed-manifest.ts).
  const heading = `\n## ${repositorySection}\n`;
  expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(heading);
  expect(readFileSync(join(installed, 'README.md'), 'utf8')).not.toContain(heading);
  const found: string[] = [];
  for (const file of shippedMarkdown) {
    const text = readFileSync(join(installed, file), 'utf8');
    for (const pattern of repositoryCommands) {
      const match = pattern.exec(text);
      if (match !== null) found.push(`${file}: ${match[0]}`);
    }
  }
  expect(found).toEqual([]);
  // The check bites: this repository's own guide gives them.
  const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  expect(repositoryCommands.filter((pattern) => pattern.test(contributing)).length).toBeGreaterThan(
    3,
  );
});

/**
 * Where each shipped file's shell blocks and workflows run as written: by file and heading, the
 * test file that runs every such block under that heading.
 */
const runBy: Readonly<Record<string, string>> = {
  'README.md#Set up': 'scripts/shipped-docs-commands.test.ts',
  'README.md#CI engineer: staging held to the interface': 'scripts/shipped-docs-commands.test.ts',
  'contract-tests/README.md#Contract harness': 'scripts/shipped-docs-commands.test.ts',
  'docs/install.md#Install': 'scripts/consumer-versions.test.ts',
  'docs/install.md#The commands, from your project': 'scripts/shipped-docs-commands.test.ts',
  'docs/tests.md#In your tests (vitest, Node)': 'scripts/shipped-docs-commands.test.ts',
  'docs/jest.md#In process, Node environment': 'scripts/consumer-jest.test.ts',
  'docs/jest.md#In process under jsdom': 'scripts/consumer-jest.test.ts',
  'docs/jest.md#Over HTTP from a global set-up (no flag)': 'scripts/consumer-jest.test.ts',
  'docs/node-test.md#In process': 'scripts/consumer-node-test.test.ts',
  'docs/vitest-http.md#Over HTTP from a global setup (vitest)':
    'scripts/consumer-node-test.test.ts',
  'docs/node-test.md#Over HTTP from a global set-up': 'scripts/consumer-node-test.test.ts',
  'docs/app.md#In your app (Vite + React, browser)': 'scripts/consumer-app.test.ts',
  'docs/app.md#Recipe: Playwright end-to-end tests': 'scripts/consumer-app.test.ts',
  'docs/app.md#Recipe: Storybook stories through `fake.handlers`': 'scripts/consumer-app.test.ts',
  'docs/playwright.md#Playwright on its own': 'scripts/consumer-playwright.test.ts',
  'docs/playwright.md#One fake for the run': 'scripts/consumer-playwright.test.ts',
  'docs/nextjs.md#Next.js server code': 'scripts/consumer-nextjs.test.ts',
  'docs/qa.md#Recipe: 429 → Retry-After → ban → recovery, in seconds':
    'scripts/shipped-docs-commands.test.ts',
  'docs/harness/run.md#Point it at a server': 'scripts/shipped-docs-commands.test.ts',
  'docs/harness/proxy.md#Conformance from real traffic: the proxy':
    'scripts/shipped-docs-commands.test.ts',
  'docs/harness/calibrate.md#Calibrate the fake against a real server':
    'scripts/shipped-docs-commands.test.ts',
  'docs/harness/verify-pact.md#Replay a pact: verify-pact': 'scripts/shipped-docs-commands.test.ts',
  'docs/harness/ci.md#CI': 'scripts/shipped-docs-commands.test.ts',
};

test('every shell block and workflow of a shipped file is run as written by a test that reads its section', () => {
  const unclaimed: string[] = [];
  const claimed = new Set<string>();
  for (const file of shippedMarkdown) {
    for (const block of fencedBlocks(readFileSync(join(installed, file), 'utf8'))) {
      if (!['sh', 'bash', 'shell', 'yaml', 'yml'].includes(block.lang)) continue;
      const where = `${file}#${block.heading}`;
      if (runBy[where] === undefined) unclaimed.push(`${where}: ${block.text.split('\n')[0]}`);
      else claimed.add(where);
    }
  }
  expect(unclaimed).toEqual([]);
  // Every entry names a section that has such a block, and a test that reads that file and
  // heading (and so fails when either moves).
  expect([...claimed].sort()).toEqual(Object.keys(runBy).sort());
  for (const [where, testFile] of Object.entries(runBy)) {
    const [file = '', heading = ''] = where.split('#');
    const source = readFileSync(join(root, testFile), 'utf8');
    const name = file === 'README.md' ? 'README.md' : file.replace(/^docs\//, '');
    expect(source, `${testFile} does not read ${file}`).toContain(name);
    expect(source, `${testFile} does not read "${heading}"`).toContain(heading);
  }
});

test('every function of fake.control is named in the QA guide', async () => {
  const qa = readFileSync(join(installed, 'docs', 'qa.md'), 'utf8');
  const fake = await createFake();
  const names = Object.keys(fake.control);
  expect(names.length).toBeGreaterThan(15);
  expect(names.filter((name) => !qa.includes(`\`${name}(`))).toEqual([]);
});
