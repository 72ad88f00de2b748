/**
 * The package.json that `npm pack` ships: this repository's, without the `prepare` script. That
 * script builds dist/ in a git clone (scripts/build-package.ts --if-missing); the tarball ships
 * dist/ but not scripts/, and npm 11 names any install-time script of a dependency in an
 * `install-scripts` warning when a project installs it. So `prepack` writes the packed manifest
 * over package.json (keeping the original aside) and `postpack` puts the original back:
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

/** Writes the packed manifest over `dir`/package.json, or puts the original back. */
function swapManifest(dir: string, action: 'strip' | 'restore'): void {
  const file = join(dir, 'package.json');
  const aside = join(dir, 'node_modules', '.cache', 'petstore-fake', 'package.json.prepack');
  if (action === 'strip') {
    mkdirSync(dirname(aside), { recursive: true });
    const text = readFileSync(file, 'utf8');
    writeFileSync(aside, text);
    writeFileSync(file, `${JSON.stringify(packedManifest(JSON.parse(text)), null, 2)}\n`);
  } else if (existsSync(aside)) renameSync(aside, file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const action = process.argv[2];
  if (action !== 'strip' && action !== 'restore') {
    console.error('packed-manifest: usage: node scripts/packed-manifest.ts strip|restore');
    process.exit(2);
  }
  swapManifest(fileURLToPath(new URL('..', import.meta.url)), action);
}
