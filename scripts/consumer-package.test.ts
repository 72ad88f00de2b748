/**
 * The package from a user's side: built, packed and installed offline into a fresh project
 * (consumer-project.ts). There the examples of the install and tests guides (docs/install.md,
 * docs/tests.md, which the package ships and its README links) type-check under
 * a standard strict NodeNext tsconfig, run on plain Node and pass in vitest, and both commands
 * answer. Everything runs on the Node that `npm test` runs on (Node 24 from the `node`
 * devDependency), which is also first on the PATH the commands' `#!/usr/bin/env node` sees.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { type ConsumerProject, createConsumerProject } from './consumer-project.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const docs = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');
/** The guides a Node project follows (the app guide's Vite app is consumer-app.test.ts's). */
const guide = `${docs('install.md')}\n${docs('tests.md')}`;
const tsc = new URL('../node_modules/.bin/tsc', import.meta.url).pathname;

let project: ConsumerProject;

/** PATH with this Node first, then the project's bins: what an npm script in the project sees. */
function projectEnv(): NodeJS.ProcessEnv {
  const bins = join(project.dir, 'node_modules', '.bin');
  return { PATH: [dirname(process.execPath), bins, process.env.PATH].join(delimiter) };
}

/** A loopback port nothing listens on right now. */
async function freePortNumber(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** As inProject, without blocking this process (a server it started keeps answering). */
async function inProjectAsync(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
) {
  const child = spawn(command, args, {
    cwd: project.dir,
    env: { ...process.env, ...projectEnv(), NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, out };
}

/** Runs a command in the project and returns its exit code and output, never throwing. */
function inProject(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: project.dir,
    encoding: 'utf8',
    // Not this vitest's own variables (the project's vitest would take them as its own), and no
    // colours in the output the checks read.
    env: {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !/^VITEST|^FORCE_COLOR$/.test(name)),
      ),
      ...projectEnv(),
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}`, stdout: result.stdout };
}

/** The names the README's Imports table lists for an import path (backticked, first column). */
function documentedNames(path: string): string[] {
  const imports = markdownSection(guide, 'Imports');
  const row = imports.split('\n').find((line) => line.startsWith(`| \`${path}\` |`));
  if (!row) throw new Error(`README: no row for ${path} in the Imports table`);
  const gives = row.split('|')[2] ?? '';
  const names = [...gives.matchAll(/`(\w+)`/g)].map((match) => match[1] ?? '');
  return /everything `petstore-fake` gives/.test(gives)
    ? [...names, ...documentedNames('petstore-fake')]
    : names;
}

/** A file that imports every documented name of each entry and uses each in a type. */
function everyExportFile(paths: readonly string[]): string {
  return paths
    .flatMap((path, index) => {
      const names = documentedNames(path);
      // Values start lower-case (createFake, defaultSeed), types upper-case (Pet, ConfigError).
      const uses = names.map((name) =>
        /^[a-z]/.test(name) ? `typeof E${index}.${name}` : `E${index}.${name}`,
      );
      return [
        `import type * as E${index} from '${path}';`,
        `export type Uses${index} = [${uses.join(', ')}];`,
      ];
    })
    .join('\n');
}

beforeAll(async () => {
  project = await createConsumerProject();
  // The README's examples, each into the file its first line names.
  for (const block of fencedBlocks(guide)) {
    const file = exampleFileName(block);
    if (file === undefined) continue;
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), `${block.text}\n`);
  }
  writeFileSync(
    join(project.dir, 'src', 'every-export.ts'),
    `${everyExportFile(['petstore-fake', 'petstore-fake/node', 'petstore-fake/qa', 'petstore-fake/openapi', 'petstore-fake/connect'])}\n`,
  );
  mkdirSync(join(project.dir, 'web'));
  writeFileSync(
    join(project.dir, 'web', 'every-export.ts'),
    `${everyExportFile(['petstore-fake/browser', 'petstore-fake/qa'])}\n`,
  );
}, 180_000);

afterAll(() => project?.remove());

test('the tarball ships the build, the OpenAPI document and no sources or tests', () => {
  const files = project.packedFiles;
  for (const file of [
    'package.json',
    'README.md',
    'openapi/petstore.yaml',
    'openapi/interface.md', // the document petstore.yaml says sits beside it
    'contract-tests/README.md', // the harness's docs, which its --help names
    // The guides the README links, and the picture it shows.
    ...[
      'install',
      'tests',
      'jest',
      'node-test',
      'app',
      'browser',
      'fake',
      'qa',
      'pact',
      'reliability',
    ].map((name) => `docs/${name}.md`),
    'docs/harness/ci.md',
    'docs/qa-page.png',
    'docs/coverage.schema.json',
    'dist/bin/petstore-fake.js',
    'dist/bin/petstore-contract.js',
    // What each bin loads once its Node.js check passed.
    'dist/bin/petstore-fake-cli.js',
    'dist/bin/petstore-contract-cli.js',
    // What a CommonJS require loads (Jest): the builds of connect and qa, the ES modules' gates.
    ...['connect', 'qa', 'node', 'index', 'openapi'].map((entry) => `dist/cjs/${entry}.cjs`),
    ...[
      'core/fake',
      'doors/node/node',
      'doors/connect/connect-fake',
      'doors/browser/browser',
      'base/contract/openapi.generated',
    ].flatMap((entry) => [`dist/mock/${entry}.js`, `dist/mock/${entry}.d.ts`]),
  ])
    expect(files).toContain(file);
  // contract-tests/README.md ships: the harness's help points at it.
  expect(
    files.filter(
      (file) =>
        /(?<!\.d)\.ts$|\.test\.|contract-tests\//.test(file) && file !== 'contract-tests/README.md',
    ),
  ).toEqual([]);
  const manifest = JSON.parse(
    readFileSync(join(project.dir, 'node_modules', 'petstore-fake', 'package.json'), 'utf8'),
  );
  expect(manifest.private).toBeUndefined();
  // No script npm would run on install (npm 11 names them in an install-scripts warning).
  expect(Object.keys(manifest.scripts)).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/^(pre|post)?install$|^prepare$/)]),
  );
  expect(manifest.engines).toEqual({ node: '>=22.12.0' });
});

/**
 * Checks that would compile if the package's types were `any` (a declaration file that does not
 * resolve, hidden by skipLibCheck): each must be a type error.
 */
const typesAreReal = `import type { NewPet, Pet } from 'petstore-fake';
import { createFakeServer } from 'petstore-fake/node';
import { openapiDocument } from 'petstore-fake/openapi';
import type { Fake } from 'petstore-fake';

// @ts-expect-error a Pet has an id
export const noId: Pet = { name: 'Rex', categoryId: 1 };
// @ts-expect-error status is available, pending or sold
export const badStatus: NewPet = { name: 'Rex', categoryId: 1, status: 'adopted' };
// @ts-expect-error the seed is an array of pets or 'empty'
export const badSeed = createFakeServer({ seed: 'none' });
// @ts-expect-error the document is a typed constant
export const noSuchField: string = openapiDocument.info.nope;
// @ts-expect-error the behaviour core is the doors' plumbing, not part of a Fake
export const noCore = (fake: Fake) => fake.behaviour;
`;

/** A standard strict NodeNext tsconfig (as @tsconfig/node22 with strict), over `include`. */
function nodeTsconfig(include: readonly string[], overrides: object = {}): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      lib: ['es2023'],
      module: 'nodenext',
      strict: true,
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
      ...overrides,
    },
    include,
  });
}

test('tsc with a standard strict NodeNext tsconfig passes on the README examples and every documented export', () => {
  const examples = fencedBlocks(guide)
    .map(exampleFileName)
    .filter((file): file is string => file?.endsWith('.ts') === true);
  expect(examples).toEqual(
    expect.arrayContaining([
      'src/mocks/petstore.ts',
      'src/mocks/handlers.ts',
      'vitest.setup.ts',
      'vitest.petstore-part.ts',
      'vitest.petstore-suite.ts',
      'vitest.config.ts',
      'src/pets.test.ts',
      'src/pet-errors.test.ts',
    ]),
  );
  writeFileSync(join(project.dir, 'src', 'types-are-real.ts'), typesAreReal);
  writeFileSync(
    join(project.dir, 'tsconfig.json'),
    nodeTsconfig([...examples, 'src/every-export.ts', 'src/types-are-real.ts']),
  );
  const run = inProject(tsc, ['-p', 'tsconfig.json']);
  expect(run.out).toBe('');
  expect(run.code).toBe(0);
});

test('every declaration file the package ships type-checks (skipLibCheck off)', () => {
  // msw's own declarations name DOM types (RequestMode, MessageEvent): a Node project that
  // checks library files needs the DOM lib for msw, not for this package.
  writeFileSync(
    join(project.dir, 'tsconfig.full.json'),
    nodeTsconfig(['src/every-export.ts'], { lib: ['es2023', 'dom'], skipLibCheck: false }),
  );
  const run = inProject(tsc, ['-p', 'tsconfig.full.json']);
  expect(run.out).toBe('');
  expect(run.code).toBe(0);
});

test('the browser door type-checks with DOM types and no Node types', () => {
  writeFileSync(
    join(project.dir, 'web', 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2023', 'dom', 'dom.iterable'],
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        types: [],
        noEmit: true,
        skipLibCheck: false,
      },
      include: ['every-export.ts'],
    }),
  );
  const web = inProject(tsc, ['-p', 'web/tsconfig.json']);
  expect(web.out).toBe('');
  expect(web.code).toBe(0);
});

/** Bundles `source` (written to web/<name>) from the project for the browser, as a bundler would. */
function bundleForBrowser(name: string, source: string) {
  writeFileSync(join(project.dir, 'web', name), source);
  return build({
    entryPoints: [join(project.dir, 'web', name)],
    absWorkingDir: project.dir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

test('esbuild bundles the installed browser door for the browser, without Node modules', async () => {
  const result = await bundleForBrowser(
    'main.ts',
    "import { startFakeWorker } from 'petstore-fake/browser';\nawait startFakeWorker({ quiet: true });\n",
  );
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs).toContain('node_modules/petstore-fake/dist/mock/doors/browser/browser.js');
  expect(inputs).toContain('node_modules/petstore-fake/dist/fixtures/pets.json');
  expect(
    inputs.filter(
      (input) => input.startsWith('node:') || (/\.ts$/.test(input) && !input.startsWith('web/')),
    ),
  ).toEqual([]);
  // And the Node door does not resolve for the browser (its `"browser": null` condition).
  await expect(bundleForBrowser('wrong-door.ts', "import 'petstore-fake/node';\n")).rejects.toThrow(
    /petstore-fake\/node/,
  );
});

test('plain Node runs the README script with createFakeServer and gets answers', () => {
  const script = readFileSync(join(project.dir, 'try-fake.mjs'), 'utf8');
  const expected = /\/\/ (.+)$/m.exec(
    script.split('\n').find((line) => line.includes('console.log')) ?? '',
  )?.[1];
  expect(expected).toBe('200 3');
  const run = inProject(process.execPath, ['try-fake.mjs']);
  expect(run.out).toBe(`${expected}\n`);
  expect(run.code).toBe(0);
});

test('every value a Node entry exports is in the README, openapi.yaml resolves, and the browser door does not resolve in Node', () => {
  const probe = `
    const entries = {};
    for (const path of ['petstore-fake', 'petstore-fake/node', 'petstore-fake/qa', 'petstore-fake/openapi', 'petstore-fake/connect'])
      entries[path] = Object.keys(await import(path)).sort();
    const browser = await import('petstore-fake/browser').then(() => 'resolved', (error) => error.code);
    const { readFileSync } = await import('node:fs');
    const yaml = readFileSync(new URL(import.meta.resolve('petstore-fake/openapi.yaml')), 'utf8');
    console.log(JSON.stringify({ entries, browser, yaml: yaml.slice(0, 20) }));`;
  const run = inProject(process.execPath, ['--input-type=module', '-e', probe]);
  expect(run.code, run.out).toBe(0);
  const { entries, browser, yaml } = JSON.parse(run.stdout) as {
    entries: Record<string, string[]>;
    browser: string;
    yaml: string;
  };
  expect(yaml).toMatch(/^openapi: 3\.1/);
  for (const [path, names] of Object.entries(entries)) {
    expect(names.length, path).toBeGreaterThan(0);
    expect(documentedNames(path)).toEqual(expect.arrayContaining(names));
  }
  expect(entries['petstore-fake/node']).toContain('createFakeServer');
  // The root is the front door: the QA helpers are petstore-fake/qa's, and only there.
  expect(entries['petstore-fake/qa']).toEqual(
    expect.arrayContaining([
      'expectInterfaceCoverage',
      'mergePacts',
      'formatCoverage',
      'expectRequests',
      'RequestCountError',
    ]),
  );
  for (const path of ['petstore-fake', 'petstore-fake/node'])
    expect(entries[path]?.filter((name) => entries['petstore-fake/qa']?.includes(name))).toEqual(
      [],
    );
  expect(browser).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
});

/** The README's two test files: each has its own modules in vitest, so its own fake. */
const testFiles = ['src/pets.test.ts', 'src/pet-errors.test.ts'];
const vitestBin = () => join(project.dir, 'node_modules', '.bin', 'vitest');
/** Where the README's setup file writes each test file's part. */
const partsDir = () => join(project.dir, '.petstore', 'parts');
const testCount = () =>
  testFiles
    .map((file) => readFileSync(join(project.dir, file), 'utf8').match(/^test\(/gm)?.length ?? 0)
    .reduce((sum, count) => sum + count, 0);

test('vitest runs the README test with the setup file and server.use overrides', () => {
  const tests = readFileSync(join(project.dir, 'src', 'pets.test.ts'), 'utf8');
  const count = testCount();
  expect(tests).toContain('server.use(');
  // The app's own msw handlers are among the initial handlers: its test runs after resets.
  expect(readFileSync(join(project.dir, 'src', 'mocks', 'petstore.ts'), 'utf8')).toMatch(
    /createFakeServer\(\{\n {2}handlers,/,
  );
  expect(tests).toContain("the app's own handlers answer beside the fake, after every reset");
  // The project began as the tests guide begins one: `npm init -y` wrote "type": "commonjs",
  // and the guide's `npm pkg set type=module` made it a module.
  expect(project.startOutput).toMatch(/"type": "commonjs"/);
  expect(JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')).type).toBe('module');
  const run = inProject(vitestBin(), ['run']);
  // Vite's warning for a config file with `import` in a CommonJS package is not there.
  expect(run.out).not.toMatch(/loaded as CommonJS|ESM syntax/i);
  expect(run.out).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
  expect(run.out).toMatch(/Test Files\s+2 passed \(2\)/);
  expect(run.code).toBe(0);
  // The README's vitest.petstore-suite.ts wrote the pact of what the tests' requests did, gathered
  // across resets, from both files' parts.
  const pact = JSON.parse(
    readFileSync(join(project.dir, 'pacts', 'web-app-petstore.json'), 'utf8'),
  );
  expect(pact.metadata.pactSpecification).toEqual({ version: '4.0' });
  const descriptions = pact.interactions.map((each: { description: string }) => each.description);
  expect(descriptions).toContain(
    'listPets 200: GET /pets?limit (a key on the free plan, pets exist)',
  );
  // From src/pet-errors.test.ts, the other file.
  expect(descriptions).toEqual(
    expect.arrayContaining([
      'getPet 404 not_found: GET /pets/{petId} (a key on the free plan, pet 99999 does not exist)',
      'createPet 400 invalid_body: POST /pets (a key on the free plan)',
      'listPets 401 unauthorized: GET /pets (no key)',
    ]),
  );
  expect(new Set(pact.interactions.map((each: { key: string }) => each.key)).size).toBe(
    descriptions.length,
  );
  expect(readdirSync(partsDir())).toHaveLength(testFiles.length);
  // The suite's coverage counts both files' requests: pets.test.ts sends two that reach the fake
  // (its server.use override answers the third), pet-errors.test.ts three.
  const coverage = readFileSync(join(project.dir, 'interface-coverage.md'), 'utf8');
  expect(coverage).toMatch(/; 5 exchanges seen \(/);
  for (const id of ['listPets 200', 'getPet 404', 'createPet 400', 'listPets 401'])
    expect(coverage).toMatch(new RegExp(`^\\| \`${id}\` [^|]+\\| exercised \\| 1 \\|`, 'm'));
  // The error body: the forced 503 in one file, the 404, 400 and 401 in the other.
  expect(coverage).toMatch(/^\| `errors\.body` [^|]+\| exercised \| 4 \|/m);
});

test("a run of one test file, or of some tests (-t), passes without judging the coverage requirement unless asked, leaves the suite's pact and coverage as the whole run wrote them, writes its own under .petstore/partial/, and git ignores .petstore/ as the README says", () => {
  const whole = inProject(vitestBin(), ['run']);
  expect(whole.code, whole.out).toBe(0);
  const suitePact = join(project.dir, 'pacts', 'web-app-petstore.json');
  const suiteCoverage = join(project.dir, 'interface-coverage.md');
  const written = [readFileSync(suitePact, 'utf8'), readFileSync(suiteCoverage, 'utf8')];
  const partialPact = join(project.dir, '.petstore', 'partial', 'pacts', 'web-app-petstore.json');
  for (const args of [
    ['run', 'src/pet-errors.test.ts'],
    ['run', '-t', 'a missing pet'],
    ['run', 'src/pets.test.ts'],
  ]) {
    const run = inProject(vitestBin(), args);
    expect(run.out).toContain(
      'petstore: a partial run (1 of 2 files, or -t): see .petstore/partial/; coverage is judged on a whole run\n',
    );
    // The requirement (listPets 200 is pets.test.ts's, the errors pet-errors.test.ts's) waits
    // for a whole run: the tests passed, and so does the run.
    expect(run.out).not.toContain('InterfaceCoverageError');
    expect(run.code, run.out).toBe(0);
    expect([readFileSync(suitePact, 'utf8'), readFileSync(suiteCoverage, 'utf8')]).toEqual(written);
    const partial = JSON.parse(readFileSync(partialPact, 'utf8')) as {
      interactions: { description: string }[];
    };
    const descriptions = partial.interactions.map((each) => each.description);
    if (args.includes('src/pets.test.ts')) {
      expect(descriptions).toContain(
        'listPets 200: GET /pets?limit (a key on the free plan, pets exist)',
      );
      expect(JSON.stringify(partial)).not.toContain('GET /pets/{petId}');
    } else {
      expect(descriptions).toContain(
        'getPet 404 not_found: GET /pets/{petId} (a key on the free plan, pet 99999 does not exist)',
      );
      expect(JSON.stringify(partial)).not.toContain('GET /pets?limit');
    }
  }
  // Asked, a partial run is judged: pet-errors.test.ts alone never lists pets with a key.
  const asked = inProject(vitestBin(), ['run', 'src/pet-errors.test.ts'], {
    PETSTORE_REQUIRE_COVERAGE: '1',
  });
  expect(asked.out).toMatch(/Tests\s+3 passed \(3\)/);
  expect(asked.out).toContain(
    'error during close InterfaceCoverageError: petstore-fake: the tests never exercised 1 of the 4 required interface item(s) (3 requests seen):\n' +
      '  - listPets 200: GET /pets answered 200 (GET /pets (listPets))\n',
  );
  expect(asked.code).toBe(1);
  // The README's .gitignore lines, in a git repository of the project.
  const ignore = fencedBlocks(guide).find((block) => block.lang === 'gitignore');
  expect(ignore?.text.split('\n')[0]).toMatch(/^# \.gitignore/);
  writeFileSync(join(project.dir, '.gitignore'), `${ignore?.text}\n`);
  expect(inProject('git', ['init', '-q']).code).toBe(0);
  const ignored = [
    '.petstore/partial/interface-coverage.md',
    ...readdirSync(partsDir()).map((name) => `.petstore/parts/${name}`),
  ];
  const checked = inProject('git', [
    'check-ignore',
    '--no-index',
    ...ignored,
    'pacts/web-app-petstore.json',
  ]);
  expect(checked.stdout.trim().split('\n')).toEqual(ignored);
});

test("an unmet coverage requirement fails the consumer's vitest run with the readable list, and stale parts are cleared first", () => {
  const suite = join(project.dir, 'vitest.petstore-suite.ts');
  const written = readFileSync(suite, 'utf8');
  const unmet = written.replace("require: ['", "require: ['limits.ban', '");
  expect(unmet).not.toBe(written);
  writeFileSync(suite, unmet);
  try {
    const count = testCount();
    const run = inProject(vitestBin(), ['run']);
    // Every test passed; the requirement alone fails the run.
    expect(run.out).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
    const printed = run.out.slice(run.out.indexOf('error during close'));
    // A few lines: the error and its list, one frame (the suite's call), nothing of each item again.
    expect(printed.split('\n').slice(0, 3).join('\n')).toMatch(
      new RegExp(
        '^error during close InterfaceCoverageError: petstore-fake: the tests never exercised 1 of the 5 required interface item\\(s\\) \\(5 requests seen\\):\n' +
          '  - limits\\.ban: after a 429, the same key kept sending before its Retry-After had passed \\(the ban\\) \\(Limits, rule 3\\)\n' +
          ' {4}at \\S+ \\(.*vitest\\.petstore-suite\\.ts:\\d+:\\d+\\)$',
      ),
    );
    expect(printed.split('\n')[3] ?? '').not.toMatch(/^ {4}at |missing/);
    expect(run.out).not.toMatch(/missing: \[|not-exercised/);
    expect(run.code).toBe(1);
    // The first run's parts are gone: this run's two alone were merged.
    expect(readdirSync(partsDir())).toHaveLength(testFiles.length);
  } finally {
    writeFileSync(suite, written);
  }
});

test('both commands answer --help and --version', () => {
  for (const bin of Object.keys(packageJson.bin)) {
    const help = inProject(bin, ['--help']);
    expect(help.out, bin).toMatch(/^Usage: /m);
    expect(help.code, bin).toBe(0);
    const version = inProject(bin, ['--version']);
    // `0.1.0` or `petstore-contract 0.1.0`: the version, alone on its line.
    expect(version.out, bin).toMatch(
      new RegExp(`^(${bin} )?${packageJson.version.replaceAll('.', '\\.')}\n$`),
    );
    expect(version.code, bin).toBe(0);
  }
});

test('petstore-contract --fake finds the installed fake conforming', () => {
  const run = inProject('petstore-contract', ['--fake', '--seed', '1']);
  expect(run.out).toMatch(/the server conforms to the interface/);
  expect(run.code).toBe(0);
});

test("the installed bins name themselves in help and usage lines, and the harness's docs path resolves inside the package", () => {
  const contract = inProject('petstore-contract', ['--help']);
  expect(contract.out).toMatch(/^Usage: petstore-contract \(--base-url/);
  expect(contract.out).not.toContain('npm run contract');
  const docs = /\(docs: ([^)]+)\)/.exec(contract.out)?.[1] ?? '';
  expect(docs).toBe(join('node_modules', 'petstore-fake', 'contract-tests', 'README.md'));
  expect(readFileSync(join(project.dir, docs), 'utf8')).toMatch(/^# Contract harness/);
  for (const sub of ['proxy', 'calibrate']) {
    const help = inProject('petstore-contract', [sub, '--help']);
    expect(help.out, sub).toMatch(new RegExp(`^Usage: petstore-contract ${sub} `));
    expect(help.out, sub).not.toMatch(/npm (run|start)/);
  }
  const typo = inProject('petstore-contract', ['--fak']);
  expect(typo.out).toContain('did you mean --fake?');
  expect(typo.out).toContain('run petstore-contract --help for usage');
  const fake = inProject('petstore-fake', ['--help']);
  expect(fake.out).toMatch(/^Usage: petstore-fake \[options\]/);
  expect(fake.out).toContain('petstore-contract calibrate');
  expect(fake.out).not.toMatch(/npm (run|start)/);
});

test('a failure found by the installed harness prints a replay line that runs as printed there, and the JUnit file holds it whole', async () => {
  // The installed fake with every GET /pets/{petId} answered 500 (seeded chaos): a broken server.
  const port = await freePortNumber();
  const chaos = JSON.stringify({ seed: 1, rules: [{ operationId: 'getPet', errors: { 500: 1 } }] });
  // The project's installed bin (a name, not a dependency of this repository).
  const [fakeBin = ''] = Object.keys(packageJson.bin);
  const server = spawn(
    fakeBin,
    ['--port', String(port), '--no-staging', '--quiet', '--chaos', chaos],
    {
      cwd: project.dir,
      env: { ...process.env, ...projectEnv() },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let banner = '';
    server.stdout.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    for (let waited = 0; !banner.includes('demo keys (send as'); waited += 50) {
      if (waited > 30_000 || server.exitCode !== null) throw new Error(`no banner: ${banner}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const keyEnv = { PETSTORE_API_KEY: 'enterprise-demo-key' };
    const first = await inProjectAsync(
      'petstore-contract',
      ['--base-url', baseUrl, '--seed', '7', '--junit', 'report.xml'],
      keyEnv,
    );
    expect(first.code, first.out).toBe(1);
    const replays = [...first.out.matchAll(/^ +replay: (.+)$/gm)].map((match) => match[1] ?? '');
    expect(replays.length).toBeGreaterThan(0);
    const active = replays.find((line) => line.includes(' --only ')) ?? '';
    expect(active).toMatch(
      new RegExp(`^petstore-contract --base-url ${baseUrl} --seed=7 --only getPet\\.`),
    );
    const xml = readFileSync(join(project.dir, 'report.xml'), 'utf8');
    for (const line of replays) expect(xml).toContain(`replay: ${line}`);
    // As printed, in the user's shell, in their project.
    const again = await inProjectAsync('bash', ['-c', active], keyEnv);
    expect(again.code, again.out).toBe(1);
    const id = / --only (\S+)$/.exec(active)?.[1] ?? '';
    expect(again.out).toMatch(new RegExp(`^ {2}FAIL {2}${id.replaceAll('.', '\\.')} `, 'm'));
  } finally {
    server.kill('SIGKILL');
  }
}, 120_000);
