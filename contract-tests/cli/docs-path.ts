/**
 * Where the harness's documentation is, for its help: the package ships contract-tests/README.md
 * beside its bins, so the path printed resolves in the repository and in an installed package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: the nearest folder above this file whose package.json is ours. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (
          (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'petstore-fake'
        )
          return dir;
      } catch {
        // Not ours, or unreadable: keep looking above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The harness's README as a path from `cwd` when it lies below it, else absolute.
 * @example harnessDocs(process.cwd()) // 'node_modules/petstore-fake/contract-tests/README.md'
 */
export function harnessDocs(cwd: string): string {
  const root = packageRoot();
  if (root === undefined) return 'contract-tests/README.md in the petstore-fake package';
  const docs = join(root, 'contract-tests', 'README.md');
  const fromCwd = relative(cwd, docs);
  return fromCwd.startsWith('..') ? docs : fromCwd;
}
