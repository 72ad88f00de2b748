/**
 * The node:test guide (docs/node-test.md) from a user's side: in a project made from the packed
 * tarball (consumer-project.ts), each recipe's files are written from the guide's own code blocks
 * into a folder of their own, type-checked, and its shell block run as written on Node 24: in
 * process with createFakeServer, and over HTTP from `--test-global-setup` with startFake, the
 * URLs passed through the environment, the coverage report written and its gate judged. The same
 * project (which has vitest, as every consumer project does: one install for both) runs vitest's
 * global-setup recipe (docs/vitest-http.md): one fake per worker, told through provide/inject.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ConsumerProject, createConsumerProject } from './consumer-project.ts';
import { runInFolder, writeRecipe } from './guide-recipe.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';

const guide = readFileSync(new URL('../docs/node-test.md', import.meta.url), 'utf8');
const vitestGuide = readFileSync(new URL('../docs/vitest-http.md', import.meta.url), 'utf8');
const install = readFileSync(new URL('../docs/install.md', import.meta.url), 'utf8');
const tsc = new URL('../node_modules/.bin/tsc', import.meta.url).pathname;

/** The guide's recipes, by heading, each run in a folder of the project. */
const recipes = {
  inProcess: 'In process',
  http: 'Over HTTP from a global set-up',
} as const;

let project: ConsumerProject;

/** A recipe's one shell block, run as written. */
function runRecipe(folder: keyof typeof recipes) {
  const lines = writeRecipe(project, folder, guide, recipes[folder]);
  expect(lines).toHaveLength(1);
  return runInFolder(project, folder, lines[0] ?? '');
}

beforeAll(async () => {
  // The project's own devDependencies (msw, vitest, @types/node) and nothing for node:test.
  project = await createConsumerProject();
}, 180_000);

afterAll(() => project?.remove());

test("the install guide's node:test line installs the fake, msw and Node's types only", () => {
  const line = fencedBlocks(markdownSection(install, 'Install'))
    .flatMap((block) => block.text.split('\n'))
    .find((text) => /# or node:test$/.test(text));
  expect(line?.replace(/\s+#.*$/, '')).toBe(
    'npm install --save-dev /path/to/petstore-fake-0.1.0.tgz msw @types/node',
  );
});

test('in process: node --test runs the TypeScript test file on its own, each file with its own fake', () => {
  const run = runRecipe('inProcess');
  expect(run.out).toMatch(/ℹ pass 2\n/);
  expect(run.out).toMatch(/ℹ fail 0\n/);
  expect(run.code, run.out).toBe(0);
  // The recipes type-check as Node runs them: `.ts` in relative imports, types erased.
  for (const [folder, heading] of Object.entries(recipes))
    writeRecipe(project, folder, guide, heading);
  writeFileSync(
    join(project.dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023'],
        module: 'nodenext',
        strict: true,
        types: ['node'],
        allowImportingTsExtensions: true,
        erasableSyntaxOnly: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: Object.keys(recipes).map((folder) => `${folder}/**/*.ts`),
    }),
  );
  const types = spawnSync(tsc, ['-p', 'tsconfig.json'], { cwd: project.dir, encoding: 'utf8' });
  expect(`${types.stdout}${types.stderr}`).toBe('');
  expect(types.status).toBe(0);
}, 180_000);

test('over HTTP from --test-global-setup: the URLs reach every file through the environment, the coverage is written, and its gate bites', () => {
  const run = runRecipe('http');
  expect(run.out).toMatch(/ℹ pass 2\n/);
  expect(run.out).toMatch(/ℹ fail 0\n/);
  expect(run.code, run.out).toBe(0);
  const dir = join(project.dir, 'http');
  expect(readFileSync(join(dir, 'interface-coverage.md'), 'utf8')).toMatch(/getPet 404/);
  // Without the file that meets getPet 404, the teardown's gate fails the run.
  const line = writeRecipe(project, 'http', guide, recipes.http)[0] ?? '';
  renameSync(join(dir, 'src', 'pet-errors.test.ts'), join(dir, 'src', 'pet-errors.ts.off'));
  const unmet = runInFolder(project, 'http', line);
  expect(unmet.out).toMatch(/InterfaceCoverageError[\s\S]*getPet 404/);
  expect(unmet.code).toBe(1);
}, 180_000);

test('vitest over HTTP from its global setup: one fake per worker through provide/inject, two workers each answering its own file, the coverage written', () => {
  const folder = 'vitest-http';
  const lines = writeRecipe(project, folder, vitestGuide, 'Over HTTP from a global setup (vitest)');
  expect(lines).toEqual(['npx vitest run --maxWorkers=2']);
  const run = runInFolder(project, folder, lines[0] ?? '');
  expect(run.out).toMatch(/Tests\s+2 passed \(2\)/);
  expect(run.code, run.out).toBe(0);
  // Both workers' fakes answered requests: the two files ran side by side, one fake each.
  const answered = /requests answered by each worker's fake: (\d+), (\d+)\n/.exec(run.out);
  expect(
    answered
      ?.slice(1)
      .map(Number)
      .every((count) => count > 0),
    run.out,
  ).toBe(true);
  expect(readFileSync(join(project.dir, folder, 'interface-coverage.md'), 'utf8')).toMatch(
    /getPet 404/,
  );
  writeFileSync(
    join(project.dir, 'tsconfig.vitest.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023', 'dom'],
        module: 'nodenext',
        strict: true,
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
      },
      include: [`${folder}/**/*.ts`],
    }),
  );
  const checked = spawnSync(tsc, ['-p', 'tsconfig.vitest.json'], {
    cwd: project.dir,
    encoding: 'utf8',
  });
  expect(`${checked.stdout}${checked.stderr}`).toBe('');
  expect(checked.status).toBe(0);
}, 180_000);
