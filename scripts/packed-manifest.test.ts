/**
 * What `npm pack` ships in place of package.json and README.md (packed-manifest.ts), through the
 * door npm uses: `node scripts/packed-manifest.ts strip` (prepack) and `restore` (postpack), run
 * on a copy of the two files.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { packedReadme, repositorySection } from './packed-manifest.ts';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = readFileSync(join(root, 'package.json'), 'utf8');

test('the packed README drops "Working on this repository" and keeps every other section whole', () => {
  const packed = packedReadme(readme);
  expect(readme).toContain(`\n## ${repositorySection}\n`);
  expect(packed).not.toContain(repositorySection);
  const headings = (text: string) => text.match(/^## .+$/gm) ?? [];
  expect(headings(packed)).toEqual(
    headings(readme).filter((heading) => heading !== `## ${repositorySection}`),
  );
  // Everything before the section is as written (the section is the README's last).
  expect(readme.startsWith(packed.trimEnd())).toBe(true);
  // A section in the middle goes up to the next one.
  expect(packedReadme(`# A\n\n## ${repositorySection}\n\nown\n\n## Next\n\ntext\n`)).toBe(
    '# A\n\n## Next\n\ntext\n',
  );
});

test('prepack writes the packed package.json and README.md, and postpack puts both back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-packed-'));
  try {
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'README.md'), readme);
    writeFileSync(join(dir, 'package.json'), manifest);
    writeFileSync(
      join(dir, 'scripts', 'packed-manifest.ts'),
      readFileSync(join(root, 'scripts', 'packed-manifest.ts')),
    );
    const run = (action: string) =>
      spawnSync(process.execPath, [join(dir, 'scripts', 'packed-manifest.ts'), action], {
        encoding: 'utf8',
      });
    expect(run('strip').status).toBe(0);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(packedReadme(readme));
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prepare).toBe(
      undefined,
    );
    expect(run('restore').status).toBe(0);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readme);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(manifest);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
