/**
 * Every relative link in every Markdown file of the repository resolves to a file or folder
 * inside it, and a `#fragment` into a Markdown file names one of its headings (GitHub's slugs).
 * A link that leaves the repository (`../shared/...`) fails even when this machine happens to
 * have the file: a clone would not.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect, test } from 'vitest';

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

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Link targets: inline `[text](target)` and `![alt](target)`, and reference definitions. */
function links(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] as string,
  );
  const references = [...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
    (m) => m[1] as string,
  );
  return [...inline, ...references];
}

function problem(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: ...
  const [rawPath = '', fragment] = target.split('#', 2);
  const path = decodeURI(rawPath);
  const resolved = path === '' ? file : resolve(dirname(file), path);
  const inside = relative(root, resolved);
  if (inside.startsWith('..') || inside.startsWith(sep) || resolve(root, inside) !== resolved)
    return 'leaves the repository';
  if (!existsSync(resolved)) return 'does not exist';
  if (fragment !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile()) {
    if (!anchors(resolved).has(fragment)) return `has no heading #${fragment}`;
  }
  return undefined;
}

test('every relative link in every Markdown file resolves inside the repository', () => {
  const files = markdownFiles(root);
  expect(files.length).toBeGreaterThan(3);
  const broken: string[] = [];
  for (const file of files) {
    for (const target of links(readFileSync(file, 'utf8'))) {
      const why = problem(file, target);
      if (why !== undefined) broken.push(`${relative(root, file)}: (${target}) ${why}`);
    }
  }
  expect(broken).toEqual([]);
});

test('the link check itself catches links out of the repository, missing files and anchors', () => {
  const readme = join(root, 'README.md');
  expect(problem(readme, '../shared/petstore-interface.md')).toBe('leaves the repository');
  expect(problem(readme, 'openapi/nope.md')).toBe('does not exist');
  expect(problem(readme, 'openapi/interface.md#limits')).toBeUndefined();
  expect(problem(readme, 'openapi/interface.md#no-such-heading')).toMatch(/no heading/);
  expect(problem(readme, '#set-up')).toBeUndefined();
  expect(problem(readme, 'https://mswjs.io')).toBeUndefined();
  expect(links('[a](x.md) `[b](y.md)` [c]: z.md\n```\n[d](w.md)\n```')).toEqual(['x.md']);
});
