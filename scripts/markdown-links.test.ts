/**
 * Every relative link in every Markdown file of the repository resolves to a file or folder
 * inside it, and a `#fragment` into a Markdown file names one of its headings (GitHub's slugs).
 * A link that leaves the repository (`../shared/...`) fails even when this machine happens to
 * have the file: a clone would not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { linkProblem, links } from './markdown-links.ts';

const root = resolve(import.meta.dirname, '..');
const skipped = new Set(['node_modules', '.git', 'dist', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

test('every relative link in every Markdown file resolves inside the repository', () => {
  const files = markdownFiles(root);
  expect(files.length).toBeGreaterThan(3);
  const broken: string[] = [];
  for (const file of files) {
    for (const target of links(readFileSync(file, 'utf8'))) {
      const why = linkProblem(root, file, target);
      if (why !== undefined) broken.push(`${relative(root, file)}: (${target}) ${why}`);
    }
  }
  expect(broken).toEqual([]);
});

test('the link check itself catches links out of the repository, missing files and anchors', () => {
  const readme = join(root, 'README.md');
  expect(linkProblem(root, readme, '../shared/petstore-interface.md')).toBe(`leaves ${root}`);
  expect(linkProblem(root, readme, 'openapi/nope.md')).toBe('does not exist');
  expect(linkProblem(root, readme, 'openapi/interface.md#limits')).toBeUndefined();
  expect(linkProblem(root, readme, 'openapi/interface.md#no-such-heading')).toMatch(/no heading/);
  expect(linkProblem(root, readme, '#set-up')).toBeUndefined();
  expect(linkProblem(root, readme, 'https://mswjs.io')).toBeUndefined();
  expect(links('[a](x.md) `[b](y.md)` [c]: z.md\n```\n[d](w.md)\n```')).toEqual(['x.md']);
});
