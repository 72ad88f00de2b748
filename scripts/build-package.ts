/**
 * Builds what the published package ships (`npm run build`, and `prepack` before `npm pack` or
 * `npm publish`), into dist/:
 * - dist/mock/, dist/fixtures/: JavaScript and `.d.ts` for the library doors (`.`, `./node`,
 *   `./browser`) and the OpenAPI document (`./openapi`), emitted by tsc from tsconfig.build.json.
 *   One file per source file, so bundlers tree-shake and a stack trace names the source file.
 *   The contract types ship written out, without json-schema-to-ts (inline-contract-types.ts).
 * - dist/cjs/: what a CommonJS `require` loads (package.json's `require` condition): the
 *   entries that import no msw, bundled as CommonJS, and for the ES module entries a file that
 *   loads them where Node can, or says in one line which entry to use where it cannot (Jest).
 * - dist/bin/: the two CLIs, each one esbuild bundle with every devDependency it uses inlined
 *   (the harness runs on fast-check, Ajv and yaml, which users of the fake should not install);
 *   the package's own dependency (msw) stays an import. Each bin's entry is
 *   a tiny file that checks the Node.js version and only then imports its CLI's bundle.
 * The repository itself never runs dist/: its scripts and tests run the TypeScript sources.
 *   node scripts/build-package.ts                 builds dist/ (`npm run build`, `prepack`)
 *   node scripts/build-package.ts --if-missing    only when there is no dist/ yet (`prepare`:
 *     npm runs it in its clone when a project installs this package from a git URL, and on
 *     `npm install` here, where rebuilding every time would race other builds for nothing)
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import packageJson from '../package.json' with { type: 'json' };
import { inlineContractTypes, tsc } from './inline-contract-types.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bins, by output file under dist/bin/: the tiny entry that checks the Node.js version
 * (`bin.ts`, which imports `./cli.ts` dynamically) and the CLI itself, shipped beside it as
 * `<bin>-cli.js`.
 */
const bins: Record<string, { readonly gate: string; readonly cli: string }> = {
  'petstore-fake.js': { gate: 'mock/doors/cli/bin.ts', cli: 'mock/doors/cli/cli.ts' },
  'petstore-contract.js': { gate: 'contract-tests/bin.ts', cli: 'contract-tests/cli.ts' },
};

/** Where a bin's CLI is shipped, beside its entry: `petstore-fake.js` -> `petstore-fake-cli.js`. */
const cliFileOf = (outfile: string) => outfile.replace(/\.js$/, '-cli.js');

/**
 * Bundles a bin's entry: the version check alone, for the oldest Node.js esbuild knows of, so an
 * unsupported Node.js gets its one line and not a syntax error; its `import('./cli.ts')` names
 * the CLI's own file, loaded only after the check passed.
 */
async function bundleGate(packageDir: string, outfile: string, entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node14',
    outfile: join(packageDir, 'dist', 'bin', outfile),
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'cli-beside',
        setup(gate) {
          gate.onResolve({ filter: /^\.\/cli\.ts$/ }, () => ({
            path: `./${cliFileOf(outfile)}`,
            external: true,
          }));
        },
      },
    ],
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((imported) => imported.path),
  );
  // The entry must stay tiny: nothing but the check and the CLI's file.
  if (imports.join() !== `./${cliFileOf(outfile)}`)
    throw new Error(
      `build-package: dist/bin/${outfile} imports ${imports.join(', ')}: a bin's entry loads nothing before its Node.js check but its CLI`,
    );
  return imports;
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .map((file) => join(dir, file));
}

/**
 * tsc keeps `.ts` in the import paths of `.d.ts` files; TypeScript before 5.0 and some tools do
 * not resolve those, so the shipped declarations name the `.js` files, as the JavaScript does.
 */
function rewriteDeclarationImports(distDir: string): void {
  for (const file of filesUnder(distDir, '.d.ts')) {
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.replaceAll(/((?:from |import\()['"]\.{1,2}\/[^'"]*)\.ts(['"])/g, '$1.js$2'),
    );
  }
}

/** The package a bare import specifier names (`@scope/name` or `name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/**
 * Fails the build if shipped code or types import a package the user does not install, or a
 * `.ts` file. `imports` are what each file imports, by file.
 */
function assertImportsAreShipped(distDir: string, imports: Record<string, readonly string[]>) {
  const allowed = new Set([
    ...Object.keys(packageJson.dependencies),
    ...builtinModules,
    ...builtinModules.map((name) => `node:${name}`),
  ]);
  for (const [file, specifiers] of Object.entries(imports)) {
    for (const specifier of specifiers) {
      const wrong = specifier.startsWith('.')
        ? /\.tsx?$/.test(specifier)
        : !allowed.has(packageOf(specifier)) && !allowed.has(specifier);
      if (wrong)
        throw new Error(
          `build-package: ${relative(distDir, file)} imports ${specifier}, which the package does not ship`,
        );
    }
  }
}

/** What each file tsc emitted under dist/mock imports, by file. */
function emittedImports(distDir: string): Record<string, string[]> {
  const modules = join(distDir, 'mock');
  return Object.fromEntries(
    [...filesUnder(modules, '.js'), ...filesUnder(modules, '.d.ts')].map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(/(?:from |import\()\s*['"]([^'"]+)['"]/g)].map(
        (match) => match[1] ?? '',
      ),
    ]),
  );
}

/**
 * Bundles one CLI and returns what the bundle still imports (esbuild knows; the bundle's text
 * also holds import-like strings, such as the code Ajv generates). Files a CLI reads at run time
 * (`new URL('...', import.meta.url)`) keep their relative paths, so each must exist at the same
 * place relative to dist/bin/ in the package.
 */
async function bundleBin(packageDir: string, outfile: string, entry: string): Promise<string[]> {
  const bundle = join(packageDir, 'dist', 'bin', outfile);
  const result = await build({
    entryPoints: [join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.12',
    outfile: bundle,
    external: Object.keys(packageJson.dependencies),
    metafile: true,
    logLevel: 'warning',
    legalComments: 'inline',
    // Some CommonJS dependencies call require(); an ES module bundle has to provide one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  const text = readFileSync(bundle, 'utf8');
  for (const match of text.matchAll(/new URL\(\s*["']([^"']+)["'],\s*import\.meta\.url\s*\)/g)) {
    const target = join(dirname(bundle), match[1] ?? '');
    if (!existsSync(target) || !isShipped(relative(packageDir, target)))
      throw new Error(
        `build-package: dist/bin/${outfile} reads ${relative(packageDir, target)} at run time, which the package does not ship`,
      );
  }
  return Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((imported) => imported.external).map((imported) => imported.path),
  );
}

/**
 * The entries a CommonJS `require` loads as CommonJS (package.json's `require` condition), by
 * output file under dist/cjs/: Jest loads test files as CommonJS and cannot load an ES module
 * without --experimental-vm-modules, so a test file that reaches a fake over HTTP
 * (`petstore-fake/connect`) and judges what it saw (`petstore-fake/qa`) needs no flag. Each is
 * one bundle that imports no package (no msw).
 */
const commonJsEntries: Record<string, string> = {
  'connect.cjs': 'mock/doors/connect/connect-fake.ts',
  'qa.cjs': 'mock/qa.ts',
};

/**
 * The ES module entries a CommonJS `require` reaches through a one-line file of dist/cjs/: Node
 * 22.12+ loads the module itself (require of an ES module), while a loader that cannot (Jest
 * without --experimental-vm-modules, whose own hint names a Node version) gets one line saying
 * which entry to use instead.
 */
const esModuleEntries: Record<string, { readonly entry: string; readonly file: string }> = {
  'index.cjs': { entry: 'petstore-fake', file: '../mock/index.js' },
  'node.cjs': { entry: 'petstore-fake/node', file: '../mock/doors/node/node.js' },
  'openapi.cjs': {
    entry: 'petstore-fake/openapi',
    file: '../mock/base/contract/openapi.generated.js',
  },
};

/** Bundles one CommonJS entry; returns what it imports, which must be Node's own modules only. */
async function bundleCommonJs(packageDir: string, outfile: string, entry: string) {
  const result = await build({
    entryPoints: [join(root, entry)],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22.12',
    outfile: join(packageDir, 'dist', 'cjs', outfile),
    metafile: true,
    logLevel: 'warning',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((imported) => imported.path),
  );
  const foreign = imports.filter(
    (specifier) => !builtinModules.includes(specifier.replace(/^node:/, '')),
  );
  if (foreign.length > 0)
    throw new Error(
      `build-package: dist/cjs/${outfile} imports ${foreign.join(', ')}: a CommonJS entry loads no package`,
    );
  return imports;
}

/** The text of the CommonJS file that loads an ES module entry, or says why it cannot. */
function esModuleGate(entry: string, file: string): string {
  const line = `petstore-fake: ${entry} is an ES module, and this require() cannot load one (Jest does so only with NODE_OPTIONS=--experimental-vm-modules). In a CommonJS test file, reach a fake started in the global set-up with require('petstore-fake/connect') (connectFake) and judge it with require('petstore-fake/qa'); or run Jest with that flag: see docs/jest.md in the package.`;
  return `'use strict';
// Node 22.12+ requires an ES module; a loader that cannot gets one line saying what to use.
try {
  module.exports = require(${JSON.stringify(file)});
} catch (error) {
  const text = String(error && error.message);
  if (error && (error.code === 'ERR_REQUIRE_ESM' || /Must use import to load ES Module|Cannot use import statement outside a module/.test(text)))
    throw new Error(${JSON.stringify(line)}, { cause: error });
  throw error;
}
`;
}

/** Whether package.json `files` lists a path (or a folder that holds it). */
function isShipped(path: string): boolean {
  return packageJson.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/**
 * Builds `packageDir`/dist from scratch: by default the repository's, which `npm pack` ships; the
 * package test builds into a copy so that a build never pulls dist/ from under another one.
 */
export async function buildPackage(packageDir: string = root): Promise<string> {
  const distDir = join(packageDir, 'dist');
  rmSync(distDir, { recursive: true, force: true });
  // The probe's files must sit inside the repository, where tsc finds its tsconfig and types.
  const cacheDir = join(root, 'node_modules', '.cache', 'petstore-fake');
  mkdirSync(cacheDir, { recursive: true });
  const probeDir = mkdtempSync(join(cacheDir, 'package-types-'));
  try {
    tsc(join(root, 'tsconfig.build.json'), '--outDir', distDir);
    rewriteDeclarationImports(distDir);
    inlineContractTypes(distDir, probeDir);
    const imports = emittedImports(distDir);
    for (const [outfile, { gate, cli }] of Object.entries(bins)) {
      imports[join(distDir, 'bin', outfile)] = await bundleGate(packageDir, outfile, gate);
      imports[join(distDir, 'bin', cliFileOf(outfile))] = await bundleBin(
        packageDir,
        cliFileOf(outfile),
        cli,
      );
    }
    for (const [outfile, entry] of Object.entries(commonJsEntries))
      imports[join(distDir, 'cjs', outfile)] = await bundleCommonJs(packageDir, outfile, entry);
    for (const [outfile, { entry, file }] of Object.entries(esModuleEntries))
      writeFileSync(join(distDir, 'cjs', outfile), esModuleGate(entry, file));
    assertImportsAreShipped(distDir, imports);
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
  return distDir;
}

if (import.meta.main) {
  try {
    const ifMissing = process.argv.includes('--if-missing');
    if (ifMissing && existsSync(join(root, 'dist'))) process.exit(0);
    const distDir = await buildPackage();
    console.log(`build-package: wrote ${relative(root, distDir)}/`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
