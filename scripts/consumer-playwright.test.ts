/**
 * The Playwright guide (docs/playwright.md, which the package ships) in a project that installed
 * the packed tarball and `@playwright/test` from this repository's lockfile
 * (consumer-project.ts): its install line run as written, its three files written from its code
 * blocks, and `npx playwright test` on two workers with the Chromium of `npm test`
 * (`CHROMIUM_PATH`; Playwright's own download cannot run here). The app the guide's config starts
 * is a stand-in written by this test: a page that lists pets from `PETSTORE_URL`, as the guide
 * describes the user's app. Then its second recipe, one fake for the run, in the same project: a
 * global setup that starts the fake and tests that drive it with `connectFake`, on two workers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { freePort } from '../test/support/fake-process.ts';
import { chromiumPath } from '../test/support/headless-chromium.ts';
import {
  type ConsumerProject,
  createConsumerProject,
  projectEnvironment,
} from './consumer-project.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const tsc = new URL('../node_modules/.bin/tsc', import.meta.url).pathname;
const guide = markdownSection(
  readFileSync(new URL('../docs/playwright.md', import.meta.url), 'utf8'),
  'Playwright on its own',
);
/** The fixture recipe: the blocks under the guide's own heading, before its second recipe. */
const fixtureRecipe = fencedBlocks(guide).filter(
  (block) => block.heading === 'Playwright on its own',
);
const oneFakeRecipe = fencedBlocks(markdownSection(guide, 'One fake for the run'));

/**
 * A reporter that knocks on the run's one fake once the run is over: Playwright calls `onEnd`
 * in its own process (where the global setup set the variable) after the global teardown, so
 * a fake the teardown left open would still answer there.
 */
const fakeUrlReporter = `import { writeFileSync } from 'node:fs';

export default class FakeUrlReporter {
  async onEnd() {
    const url = process.env.PETSTORE_FAKE_URL ?? '';
    const reached = await fetch(url + '/pets').then(
      () => 'answered',
      (error) => error.cause?.code ?? error.message,
    );
    writeFileSync('.petstore/one-fake-after.json', JSON.stringify({ url, reached }));
  }
}
`;

/** The user's app, as the guide says it behaves: its home page lists `GET /pets?limit=5`. */
const standInApp = `import { createServer } from 'node:http';

const api = process.env.PETSTORE_URL;
const page = \`<!doctype html><title>Pets</title><ul aria-label="pets"></ul>
<script type="module">
  const res = await fetch(\${JSON.stringify(api)} + '/pets?limit=5', {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  for (const pet of await res.json()) {
    const item = document.createElement('li');
    item.textContent = pet.name;
    document.querySelector('ul').append(item);
  }
</script>\`;
createServer((request, response) => {
  response.setHeader('Content-Type', 'text/html');
  response.end(page);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

let project: ConsumerProject;

/** Runs a command in the project (this Node first on PATH, no vitest variables), never throwing. */
function inProject(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: project.dir,
    encoding: 'utf8',
    env: { ...projectEnvironment(project.dir), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  project = await createConsumerProject(['@playwright/test']);
  for (const block of fencedBlocks(guide)) {
    const file = exampleFileName(block);
    if (file === undefined) continue;
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), `${block.text}\n`);
  }
  writeFileSync(join(project.dir, 'app.mjs'), standInApp);
  const manifestPath = join(project.dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.scripts = { dev: 'node app.mjs' };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}, 180_000);

afterAll(() => project?.remove());

test("the guide's install line installs the @playwright/test this repository pins", () => {
  const lines = fixtureRecipe.filter((block) => block.lang === 'sh');
  expect(lines.map((block) => block.text)).toEqual([
    `npm install --save-dev @playwright/test@${packageJson.devDependencies['@playwright/test']}`,
  ]);
  const install = inProject('bash', ['-e', '-c', lines[0]?.text ?? '']);
  expect(install.code, install.out).toBe(0);
  const installed = JSON.parse(
    readFileSync(join(project.dir, 'node_modules', '@playwright', 'test', 'package.json'), 'utf8'),
  );
  expect(installed.version).toBe(packageJson.devDependencies['@playwright/test']);
}, 120_000);

test('npx playwright test runs the guide on two workers, each with its own fake, and each worker writes its coverage', async () => {
  const files = fixtureRecipe.map(exampleFileName).filter(Boolean);
  expect(files).toEqual(['playwright.config.ts', 'e2e/petstore.ts', 'e2e/pets.spec.ts']);
  const run = inProject('npx', ['playwright', 'test', '--reporter=list'], {
    CI: 'true',
    APP_PORT: String(await freePort()),
    CHROMIUM_PATH: chromiumPath('consumer Playwright test'),
  });
  expect(run.out).toMatch(/Running 2 tests using 2 workers/);
  // Each test counts exactly its own request in its worker's journal: no worker reset or
  // used the other's fake.
  expect(run.out).toMatch(/\b2 passed\b/);
  expect(run.out).not.toMatch(/failed|flaky|skipped/);
  expect(run.code).toBe(0);
  const reports = [0, 1].map((worker) => join(project.dir, '.petstore', `coverage-${worker}.json`));
  expect(reports.map((file) => existsSync(file))).toEqual([true, true]);
  // One worker listed the seed's pets (listPets 200); the other's answer was stubbed, which
  // exercises no item (docs/qa.md, Stubs).
  const listed = reports.map((file) => {
    const record = JSON.parse(readFileSync(file, 'utf8')) as {
      items: { id: string; count: number }[];
      summary: { stubbed?: number };
    };
    return {
      ok: record.items.find((item) => item.id === 'listPets 200')?.count ?? 0,
      stubbed: record.summary.stubbed ?? 0,
    };
  });
  expect(listed).toEqual(
    expect.arrayContaining([
      { ok: 1, stubbed: 0 },
      { ok: 0, stubbed: 1 },
    ]),
  );
}, 180_000);

test("the one-fake recipe runs as written: two workers share the global setup's fake through connectFake, and its port is closed after the run", async () => {
  const files = oneFakeRecipe.map(exampleFileName).filter(Boolean);
  expect(files).toEqual([
    'e2e-one-fake/global-setup.ts',
    'playwright.one-fake.config.ts',
    'e2e-one-fake/petstore.ts',
    'e2e-one-fake/pets.spec.ts',
  ]);
  const lines = oneFakeRecipe.filter((block) => block.lang === 'sh').map((block) => block.text);
  expect(lines).toEqual(['npx playwright test -c playwright.one-fake.config.ts']);
  writeFileSync(join(project.dir, 'fake-url-reporter.mjs'), fakeUrlReporter);
  const started = performance.now();
  const run = inProject(
    'bash',
    ['-e', '-c', `${lines[0]} --reporter=list,./fake-url-reporter.mjs`],
    {
      CI: 'true',
      APP_PORT: String(await freePort()),
      CHROMIUM_PATH: chromiumPath('consumer Playwright test'),
    },
  );
  console.log(`one-fake recipe: took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Both tests at once on the one fake: each counted exactly its own request by its client id,
  // and the stub answered only the test that set it.
  expect(run.out).toMatch(/Running 2 tests using 2 workers/);
  expect(run.out).toMatch(/\b2 passed\b/);
  expect(run.out).not.toMatch(/failed|flaky|skipped/);
  expect(run.code).toBe(0);
  // After the teardown, in the process that ran it: nothing answers on the fake's port.
  const after = JSON.parse(
    readFileSync(join(project.dir, '.petstore', 'one-fake-after.json'), 'utf8'),
  ) as { url: string; reached: string };
  expect(after.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(after.url).not.toContain(':4010/');
  expect(after.reached).toBe('ECONNREFUSED');
  // One coverage record for the run, written by the teardown's close(): both workers' requests.
  const record = JSON.parse(
    readFileSync(join(project.dir, '.petstore', 'coverage-one-fake.json'), 'utf8'),
  ) as { items: { id: string; count: number }[]; summary: { stubbed?: number } };
  expect(record.items.find((item) => item.id === 'listPets 200')?.count).toBe(1);
  expect(record.summary.stubbed).toBe(1);
}, 180_000);

test("the guide's files type-check under a standard strict NodeNext tsconfig", () => {
  writeFileSync(
    join(project.dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023'],
        module: 'nodenext',
        strict: true,
        types: ['node'],
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['playwright*.config.ts', 'e2e/*.ts', 'e2e-one-fake/*.ts'],
    }),
  );
  const run = inProject(tsc, ['-p', 'tsconfig.json']);
  expect(run.out).toBe('');
  expect(run.code).toBe(0);
});
