/**
 * The Jest guide (docs/jest.md) from a user's side: in a project made from the packed tarball
 * (consumer-project.ts) with Jest 30, @swc/jest and jest-fixed-jsdom at this repository's
 * versions, each recipe's files are written from the guide's own code blocks into a folder of
 * their own, type-checked, and its shell block run as written: in process in Node and under
 * jsdom (with --experimental-vm-modules), and over HTTP from a global set-up with no flag and two
 * workers, each on its own fake, writing the pact and the coverage report. A CommonJS test file
 * that requires an ES module entry without the flag gets the guide's one line.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ConsumerProject, createConsumerProject } from './consumer-project.ts';
import { runInFolder, writeRecipe } from './guide-recipe.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';

const guide = readFileSync(new URL('../docs/jest.md', import.meta.url), 'utf8');
const install = readFileSync(new URL('../docs/install.md', import.meta.url), 'utf8');
const tsc = new URL('../node_modules/.bin/tsc', import.meta.url).pathname;

/** The guide's recipes, by heading, each run in a folder of the project. */
const recipes = {
  node: 'In process, Node environment',
  jsdom: 'In process under jsdom',
  http: 'Over HTTP from a global set-up (no flag)',
} as const;

/** What the Jest line of docs/install.md installs beside the fake (and what this project has). */
const jestPackages = ['jest', '@swc/jest', '@swc/core', '@types/jest'];
const jsdomPackages = ['jest-environment-jsdom', 'jest-fixed-jsdom'];

let project: ConsumerProject;

/** Runs a shell line in a folder of the project. */
const shell = (folder: string, line: string) => runInFolder(project, folder, line);

/** A recipe's one shell block, run as written. */
function runRecipe(folder: keyof typeof recipes) {
  const lines = writeRecipe(project, folder, guide, recipes[folder]);
  expect(lines).toHaveLength(1);
  return shell(folder, lines[0] ?? '');
}

beforeAll(async () => {
  project = await createConsumerProject([...jestPackages, ...jsdomPackages]);
}, 180_000);

afterAll(() => project?.remove());

/** The packages an install line of docs/install.md names (the tarball's path as written), by its comment. */
function installLine(comment: RegExp): string[] {
  const line = fencedBlocks(markdownSection(install, 'Install'))
    .flatMap((block) => block.text.split('\n'))
    .find((text) => comment.test(text));
  if (line === undefined) throw new Error(`docs/install.md: no install line ${comment}`);
  return line
    .replace(/\s+#.*$/, '')
    .split(' ')
    .slice(3)
    .map((spec) => spec.replace(/(.)@[^@/]*$/, '$1'));
}

test("the install guide's Jest lines install what the recipes need, and no vitest", () => {
  expect(installLine(/# or Jest$/)).toEqual([
    '/path/to/petstore-fake-0.1.0.tgz',
    'msw',
    ...jestPackages,
  ]);
  expect(installLine(/# and for Jest under jsdom$/)).toEqual(jsdomPackages);
});

test("in process in Node: the guide's tests pass with NODE_OPTIONS=--experimental-vm-modules, and tsc passes on every recipe", () => {
  const run = runRecipe('node');
  expect(run.out).toMatch(/Tests:\s+3 passed, 3 total/);
  expect(run.code, run.out).toBe(0);
  for (const [folder, heading] of Object.entries(recipes))
    writeRecipe(project, folder, guide, heading);
  // Extensionless imports, as Jest resolves them: bundler resolution, as the guide says.
  writeFileSync(
    join(project.dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023', 'dom'],
        module: 'preserve',
        moduleResolution: 'bundler',
        strict: true,
        types: ['node', 'jest'],
        skipLibCheck: true,
        noEmit: true,
      },
      include: Object.keys(recipes).flatMap((folder) => [`${folder}/**/*.ts`]),
    }),
  );
  const types = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: project.dir, encoding: 'utf8' });
  expect(`${types.stdout}${types.stderr}`).toBe('');
  expect(types.status).toBe(0);
}, 180_000);

test('in process under jsdom: jest-fixed-jsdom and customExportConditions let msw and the fake load, and the tests pass', () => {
  const run = runRecipe('jsdom');
  expect(run.out).toMatch(/Tests:\s+2 passed, 2 total/);
  expect(run.code, run.out).toBe(0);
}, 180_000);

test('over HTTP with no flag: one fake per worker on its own port, two workers, the pact and the coverage written', () => {
  const run = runRecipe('http');
  expect(run.out).not.toMatch(/ExperimentalWarning|experimental-vm-modules/);
  expect(run.out).toMatch(/Tests:\s+6 passed, 6 total/);
  expect(run.code, run.out).toBe(0);
  const dir = join(project.dir, 'http');
  // Each file wrote its part from its worker: two files, side by side on two workers.
  const workers = readdirSync(join(dir, '.petstore', 'parts')).map(
    (name) =>
      (
        JSON.parse(readFileSync(join(dir, '.petstore', 'parts', name), 'utf8')) as {
          worker: string;
        }
      ).worker,
  );
  expect(workers.sort()).toEqual(['1', '2']);
  const pact = JSON.parse(readFileSync(join(dir, 'pacts', 'web-app-petstore.json'), 'utf8')) as {
    interactions: { response: { status: number } }[];
  };
  expect(pact.interactions.map((interaction) => interaction.response.status)).toEqual(
    expect.arrayContaining([200, 400, 401, 404]),
  );
  expect(readFileSync(join(dir, 'interface-coverage.md'), 'utf8')).toMatch(/getPet 404/);
  // One file alone: its pact and coverage under .petstore/partial/, nothing judged, the
  // suite's files as the whole run left them.
  const suitePact = readFileSync(join(dir, 'pacts', 'web-app-petstore.json'), 'utf8');
  const partial = shell('http', 'npx jest --maxWorkers=2 src/pets.test.ts');
  expect(partial.out).toContain('petstore: some tests only: the coverage is not judged');
  expect(partial.code, partial.out).toBe(0);
  expect(readFileSync(join(dir, '.petstore', 'partial', 'interface-coverage.md'), 'utf8')).toMatch(
    /listPets 200/,
  );
  expect(readFileSync(join(dir, 'pacts', 'web-app-petstore.json'), 'utf8')).toBe(suitePact);
  // The gate bites: a whole run that never meets getPet 404 fails, naming it.
  renameSync(join(dir, 'src', 'pet-errors.test.ts'), join(dir, 'src', 'pet-errors.ts.off'));
  const unmet = shell('http', 'npx jest --maxWorkers=2');
  renameSync(join(dir, 'src', 'pet-errors.ts.off'), join(dir, 'src', 'pet-errors.test.ts'));
  expect(unmet.out).toMatch(/InterfaceCoverageError[\s\S]*getPet 404/);
  expect(unmet.code).toBe(1);
}, 180_000);

test('a CommonJS test file: petstore-fake/connect and petstore-fake/qa load with require and no flag; petstore-fake/node says in one line which to use', () => {
  const folder = 'commonjs';
  mkdirSync(join(project.dir, folder));
  writeFileSync(
    join(project.dir, folder, 'jest.config.cjs'),
    "module.exports = { testEnvironment: 'node' };\n",
  );
  writeFileSync(
    join(project.dir, folder, 'connect.test.cjs'),
    `const { connectFake } = require('petstore-fake/connect');
const { expectRequests } = require('petstore-fake/qa');
test('both load', () => {
  expect(typeof connectFake('http://127.0.0.1:9/__control').control.reset).toBe('function');
  expect(typeof expectRequests).toBe('function');
});
`,
  );
  writeFileSync(
    join(project.dir, folder, 'node.test.cjs'),
    "test('the Node door', () => require('petstore-fake/node'));\n",
  );
  const run = shell(folder, 'npx jest');
  const line = fencedBlocks(markdownSection(guide, 'A CommonJS test file')).find(
    (block) => block.lang === '',
  )?.text;
  expect(line).toMatch(/^petstore-fake: petstore-fake\/node is an ES module/);
  // The line comes before Jest's own explanation and its Node version hint.
  const at = run.out.indexOf(line ?? '-');
  expect(at).toBeGreaterThan(-1);
  expect(run.out.indexOf('Use Node v24.9+')).toBeGreaterThan(at);
  expect(run.out).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/);
  expect(run.code).toBe(1);
  expect(existsSync(join(project.dir, folder, 'node_modules'))).toBe(false);
  // Outside Jest, Node's own require loads the ES module entries through the same files.
  const plain = shell(
    folder,
    `node -e "const n = require('petstore-fake/node'); const r = require('petstore-fake'); console.log(typeof n.startFake, n.ControlInputError === r.ControlInputError)"`,
  );
  expect(plain.out).toBe('function true\n');
}, 180_000);
