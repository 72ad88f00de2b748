/**
 * The drawings of the imports between folders in CONTRIBUTING.md (mock/ by layer, mock/steps/,
 * contract-tests/) and the README (mock/), made by dependency-cruiser's own mermaid output.
 * `npm run drawings` writes them into the pages; scripts/architecture-graph.test.ts makes them
 * the same way and fails when a page shows another.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The folders CONTRIBUTING.md draws, in the order it shows them; the README draws the first. */
export const drawnFolders = ['mock/', 'mock/steps/', 'contract-tests/'] as const;

/** The drawing of `folder`'s folders: depcruise's mermaid, lower layers drawn lower. */
export function drawing(folder: string): string {
  const run = spawnSync(
    'npx',
    [
      'depcruise',
      folder.split('/')[0] as string,
      '--config',
      '.dependency-cruiser.cjs',
      '--exclude',
      '\\.test\\.ts$',
      '--include-only',
      `^${folder}`,
      '--output-type',
      'mermaid',
      '--collapse',
      `^${folder}[^/]+`,
    ],
    { encoding: 'utf8', cwd: root },
  );
  if (run.status !== 0) throw new Error(`depcruise ${folder} failed: ${run.stderr}`);
  return run.stdout.replace('flowchart LR', 'flowchart TD').trim();
}

/** `text` with its mermaid blocks, in order, replaced by `drawings`. */
export function withDrawings(text: string, drawings: readonly string[]): string {
  let index = 0;
  return text.replace(/```mermaid\n[\s\S]*?\n```/g, (block) => {
    const next = drawings[index++];
    return next === undefined ? block : `\`\`\`mermaid\n${next}\n\`\`\``;
  });
}

if (import.meta.main) {
  const made = drawnFolders.map(drawing);
  for (const [page, drawings] of [
    ['CONTRIBUTING.md', made],
    ['README.md', made.slice(0, 1)],
  ] as const) {
    const path = `${root}${page}`;
    writeFileSync(path, withDrawings(readFileSync(path, 'utf8'), drawings));
  }
  console.log('drawings: CONTRIBUTING.md (3) and README.md (1) written');
}
