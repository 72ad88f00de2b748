/**
 * Bundles the fake's CLI (mock/doors/cli/cli.ts) and everything it imports into one ES module, which
 * `npm start` runs (this script is its `prestart`). Loading one file instead of ~600 modules
 * (TypeScript stripped on load, and the dependencies' own modules) cuts the
 * fake's cold start to a fraction of Prism's (bench/results.md). It is the same source: tests run
 * mock/doors/cli/cli.ts directly, and one test runs this bundle. The bundle is rebuilt only when a
 * file it was built from (source, fixture, dependency) is newer than it.
 *   node scripts/build-server.ts     writes node_modules/.cache/petstore-fake/server.mjs
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Where `npm start` expects the bundle. */
export const serverBundlePath = fileURLToPath(
  new URL('../node_modules/.cache/petstore-fake/server.mjs', import.meta.url),
);

const entry = fileURLToPath(new URL('../mock/doors/cli/cli.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

function inputsListPath(outfile: string): string {
  return `${outfile}.inputs.json`;
}

/** True when `outfile` exists and no file it was built from has changed since. */
export function bundleIsFresh(outfile: string = serverBundlePath): boolean {
  try {
    const built = statSync(outfile).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsListPath(outfile), 'utf8')) as string[];
    return inputs.every((input) => statSync(join(projectRoot, input)).mtimeMs <= built);
  } catch {
    return false; // No bundle, no list, or an input gone: build.
  }
}

/** Bundles the CLI into `outfile` (default: where `npm start` runs it from) and returns the path. */
export async function bundleServer(outfile: string = serverBundlePath): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    metafile: true,
    absWorkingDir: projectRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outfile,
    sourcemap: 'linked',
    logLevel: 'warning',
    // Some CommonJS dependencies call require(); an ES module bundle has to provide one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  // Paths relative to the project root (esbuild's working directory below).
  const inputs = Object.keys(result.metafile.inputs);
  writeFileSync(inputsListPath(outfile), JSON.stringify(inputs));
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (!bundleIsFresh()) await bundleServer();
  } catch (error) {
    console.error(
      `build-server: could not bundle mock/doors/cli/cli.ts: ${(error as Error).message}`,
    );
    process.exit(1);
  }
}
