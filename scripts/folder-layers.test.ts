/**
 * No folder of mock/ or contract-tests/ imports a folder that imports it (a folder of mock/steps/,
 * mock/base/ or mock/doors/ counts on its own): the folders are the layers, and two that import
 * each other would be one idea split in two. Read from dependency-cruiser's own cruise, as
 * `npm run lint:layers` makes it; test files are tools and left out.
 */
import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

interface Cruise {
  readonly modules: readonly {
    readonly source: string;
    readonly dependencies: readonly { readonly resolved: string }[];
  }[];
}

/** The folder a module belongs to, as a layer: mock/steps/qa, mock/pipeline, contract-tests/runner... */
function folderOf(path: string): string {
  const parts = path.split('/');
  const nested = parts[0] === 'mock' && ['base', 'steps', 'doors'].includes(parts[1] ?? '');
  const depth = nested ? 3 : 2;
  return parts.length > depth
    ? parts.slice(0, depth).join('/')
    : `${parts.slice(0, -1).join('/')}/`;
}

/** Pairs of folders that import each other, each as `a -> b` (both ways listed). */
function mutualImports(cruise: Cruise): string[] {
  const edges = new Set<string>();
  for (const { source, dependencies } of cruise.modules) {
    if (source.endsWith('.test.ts') || source.includes('node_modules')) continue;
    for (const { resolved } of dependencies) {
      if (resolved.includes('node_modules') || !/^(mock|contract-tests)\//.test(resolved)) continue;
      const [from, to] = [folderOf(source), folderOf(resolved)];
      if (from !== to) edges.add(`${from} -> ${to}`);
    }
  }
  return [...edges].filter((edge) => {
    const [from, to] = edge.split(' -> ');
    return edges.has(`${to} -> ${from}`);
  });
}

test('no folder imports a folder that imports it', () => {
  const run = spawnSync(
    'npx',
    [
      'depcruise',
      'mock',
      'contract-tests',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  expect(run.status, run.stderr).toBe(0);
  const cruise = JSON.parse(run.stdout) as Cruise;
  expect(cruise.modules.length).toBeGreaterThan(300);
  expect(mutualImports(cruise)).toEqual([]);
});

test('folders that import each other are found, whichever files do it; tests are left out', () => {
  const cruise: Cruise = {
    modules: [
      { source: 'mock/steps/qa/a.ts', dependencies: [{ resolved: 'mock/steps/control/b.ts' }] },
      { source: 'mock/steps/control/c.ts', dependencies: [{ resolved: 'mock/steps/qa/d.ts' }] },
      { source: 'mock/pipeline/config/e.ts', dependencies: [{ resolved: 'mock/base/quota/f.ts' }] },
      { source: 'mock/base/quota/g.test.ts', dependencies: [{ resolved: 'mock/pipeline/h.ts' }] },
    ],
  };
  expect(mutualImports(cruise)).toEqual([
    'mock/steps/qa -> mock/steps/control',
    'mock/steps/control -> mock/steps/qa',
  ]);
  expect(folderOf('mock/index.ts')).toBe('mock/');
});
