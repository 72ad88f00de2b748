/**
 * Hand-written lines per folder, product and tests apart: what `npm run size` prints. Counted are
 * the TypeScript files git tracks, every line of them (comments are part of the house a newcomer
 * reads); generated files (`*.generated.ts`), the bundled msw worker and data files are not
 * hand-written and are left out. mock/ is broken down by its layers, a folder each.
 *
 * Usage: npm run size [-- --json]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Lines of one folder's hand-written TypeScript: the product's and its tests'. */
export interface FolderSize {
  readonly folder: string;
  readonly product: number;
  readonly tests: number;
}

/** Whether a tracked path is hand-written TypeScript. */
function handWritten(path: string): boolean {
  return path.endsWith('.ts') && !path.endsWith('.generated.ts') && !path.endsWith('.d.ts');
}

/** The folder a path counts under: its top folder, and for mock/ the layer below it. */
function folderOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'mock') return parts.length > 2 ? `mock/${parts[1]}/` : 'mock/ (entries)';
  return parts.length > 1 ? `${parts[0]}/` : '(root)';
}

/** Counts the tracked hand-written TypeScript of the repository at `at`, by folder. */
export function sourceSizes(at = root): FolderSize[] {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: at, encoding: 'utf8' })
    .split('\0')
    .filter(handWritten);
  const sizes = new Map<string, { product: number; tests: number }>();
  for (const path of tracked) {
    const text = readFileSync(`${at}/${path}`, 'utf8');
    const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const folder = folderOf(path);
    const size = sizes.get(folder) ?? { product: 0, tests: 0 };
    if (/\.test\.ts$|\.case\.ts$/.test(path)) size.tests += lines;
    else size.product += lines;
    sizes.set(folder, size);
  }
  return [...sizes]
    .map(([folder, size]) => ({ folder, ...size }))
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The totals of the folders under a prefix (`mock/`), product and tests. */
export function totalUnder(sizes: readonly FolderSize[], prefix: string): FolderSize {
  const under = sizes.filter((size) => size.folder.startsWith(prefix));
  return {
    folder: prefix,
    product: under.reduce((sum, size) => sum + size.product, 0),
    tests: under.reduce((sum, size) => sum + size.tests, 0),
  };
}

if (import.meta.main) {
  const sizes = sourceSizes();
  if (process.argv.includes('--json')) console.log(JSON.stringify(sizes, null, 2));
  else {
    const rows = [
      ...sizes.filter((size) => size.folder.startsWith('mock')),
      totalUnder(sizes, 'mock'),
    ];
    const others = sizes.filter((size) => !size.folder.startsWith('mock'));
    console.log(`${'folder'.padEnd(22)} ${'product'.padStart(8)} ${'tests'.padStart(8)}`);
    for (const size of [...rows, ...others])
      console.log(
        `${(size.folder === 'mock' ? 'mock/ (all)' : size.folder).padEnd(22)} ${String(size.product).padStart(8)} ${String(size.tests).padStart(8)}`,
      );
  }
}
