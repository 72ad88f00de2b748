/**
 * The package.json and README.md that `npm pack` ships. The package.json is this repository's
 * without the `prepare` script: that script builds dist/ in a git clone (scripts/build-package.ts
 * --if-missing); the tarball ships dist/ but not scripts/, and npm 11 names any install-time
 * script of a dependency in an `install-scripts` warning when a project installs it. The README
 * is this repository's without its "Working on this repository" section, the repository's own
 * quick start and architecture, which a user of the package cannot run. So `prepack`
 * writes both over the originals (keeping them aside) and `postpack` puts the originals back:
 *   node scripts/packed-manifest.ts strip      (prepack, after the build)
 *   node scripts/packed-manifest.ts restore    (postpack)
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scripts npm runs when a project installs the package, none of which the tarball needs. */
const installScripts = new Set(['preinstall', 'install', 'postinstall', 'prepare']);

/** A package.json, as far as this file reads it. */
interface Manifest {
  readonly scripts?: Record<string, string>;
  readonly [field: string]: unknown;
}

/** `manifest` without the scripts npm would run when a project installs the packed package. */
export function packedManifest(manifest: Manifest): Manifest {
  const scripts = Object.fromEntries(
    Object.entries(manifest.scripts ?? {}).filter(([name]) => !installScripts.has(name)),
  );
  return { ...manifest, scripts };
}

/** The README section about working on the repository itself, which the package does not ship. */
export const repositorySection = 'Working on this repository';

/** `readme` without its "Working on this repository" section (up to the next `## ` or the end). */
export function packedReadme(readme: string): string {
  const start = readme.indexOf(`\n## ${repositorySection}\n`);
  if (start === -1) return readme;
  const next = readme.indexOf('\n## ', start + 1);
  return next === -1
    ? `${readme.slice(0, start).trimEnd()}\n`
    : readme.slice(0, start) + readme.slice(next);
}

/** What `npm pack` ships in place of each original file, made from the original's text. */
const packedFiles: Readonly<Record<string, (text: string) => string>> = {
  'package.json': (text) => `${JSON.stringify(packedManifest(JSON.parse(text)), null, 2)}\n`,
  'README.md': packedReadme,
};

/** Writes the packed package.json and README.md over `dir`'s, or puts the originals back. */
function swapPackedFiles(dir: string, action: 'strip' | 'restore'): void {
  for (const [name, pack] of Object.entries(packedFiles)) {
    const file = join(dir, name);
    const aside = join(dir, 'node_modules', '.cache', 'petstore-fake', `${name}.prepack`);
    if (action === 'strip') {
      mkdirSync(dirname(aside), { recursive: true });
      const text = readFileSync(file, 'utf8');
      writeFileSync(aside, text);
      writeFileSync(file, pack(text));
    } else if (existsSync(aside)) renameSync(aside, file);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const action = process.argv[2];
  if (action !== 'strip' && action !== 'restore') {
    console.error('packed-manifest: usage: node scripts/packed-manifest.ts strip|restore');
    process.exit(2);
  }
  swapPackedFiles(fileURLToPath(new URL('..', import.meta.url)), action);
}
