/**
 * CONTRIBUTING.md draws the imports between the folders with dependency-cruiser's own mermaid
 * output (mock/ by layer, mock/steps/, contract-tests/), and the README draws mock/'s: each
 * drawing is made again here, by the command the page gives, and must be the one the page shows,
 * so the page cannot fall behind the code. And the drawings point one way: no arrow goes from a
 * folder back to one that reaches it, and in the README's every arrow goes down its layer list.
 * CONTRIBUTING.md's code map lists every folder of mock/ and contract-tests/, so a new folder
 * cannot go unmapped, and every file and folder it names exists, so a moved one cannot linger.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { drawing, drawnFolders } from './architecture-drawings.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';

const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');
const drawings = fencedBlocks(
  markdownSection(contributing, 'Architecture: layers, and what a change costs'),
).filter((block) => block.lang === 'mermaid');
const readmeSection = markdownSection(
  readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
  'Working on this repository',
);
const readmeDrawing = fencedBlocks(readmeSection).find((block) => block.lang === 'mermaid');

/** The arrows of a mermaid drawing, by the names of their ends. */
function arrows(mermaid: string): [string, string][] {
  const names = new Map(
    [...mermaid.matchAll(/^(\w+)\["([^"]+)"\]$/gm)].map((match) => [match[1], match[2]]),
  );
  return [...mermaid.matchAll(/^(\w+)-->(\w+)$/gm)].map((match) => [
    names.get(match[1] as string) ?? '?',
    names.get(match[2] as string) ?? '?',
  ]);
}

test("CONTRIBUTING.md's drawings of the imports between folders are dependency-cruiser's, made now", () => {
  expect(drawings.map((block) => block.text.trim())).toEqual(drawnFolders.map(drawing));
});

test('every drawing points one way: no folder reaches back to a folder that imports it', () => {
  for (const block of drawings) {
    const edges = arrows(block.text);
    expect(edges.length).toBeGreaterThan(3);
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      edges.some(
        ([a, b]) =>
          a === from && !seen.has(b) && (b === to || reaches(b, to, new Set([...seen, b]))),
      );
    expect(edges.filter(([a, b]) => reaches(b, a))).toEqual([]);
  }
});

test("the README's drawing of mock/ is dependency-cruiser's, and every arrow goes down the layers it lists", () => {
  expect(readmeDrawing?.text.trim()).toBe(drawing('mock/'));
  // The layers as the README names them, lowest first; the files at mock/'s root are one layer.
  const listed = /lowest first: (.+?)\. The imports/s.exec(
    readmeSection.replace(/\s+/g, ' ').replace(/ \([^)]*\)/g, ''),
  )?.[1];
  const layers = [...(listed ?? '').matchAll(/`([\w.-]+)`|the files at its root/g)].map(
    (match) => match[1] ?? 'root',
  );
  expect(layers).toEqual([
    'base',
    'pipeline',
    'store',
    'steps',
    'control-ui',
    'core',
    'root',
    'replicas',
    'doors',
    'internal',
  ]);
  const layerOf = (name: string) => layers.indexOf(name.endsWith('.ts') ? 'root' : name);
  const edges = arrows(readmeDrawing?.text ?? '');
  expect(edges.length).toBeGreaterThan(3);
  expect(edges.filter(([from, to]) => !(layerOf(from) >= layerOf(to) && layerOf(to) >= 0))).toEqual(
    [],
  );
});

/** The folders a code map entry of `root` must list: its own, and those of its nested layers. */
function foldersToList(root: string, nested: readonly string[]): string[] {
  const under = (dir: string) =>
    readdirSync(new URL(`../${dir}`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${dir}${entry.name}/`);
  return under(root).flatMap((folder) =>
    nested.includes(folder) ? [folder, ...under(folder)] : [folder],
  );
}

test("CONTRIBUTING.md's code map lists every folder of mock/ and contract-tests/, where it sits", () => {
  const map = fencedBlocks(contributing).find((block) => block.text.startsWith('openapi/'));
  // Each line's first word, with the folders it sits under by indentation (two spaces a level).
  const named: string[] = [];
  const path: string[] = [];
  for (const line of map?.text.split('\n') ?? []) {
    const match = /^( *)((?:[^\s,]+, )*[^\s,]+)/.exec(line);
    const [indent, word] = [match?.[1]?.length ?? 0, match?.[2] ?? ''];
    if (indent % 2 !== 0 || indent / 2 > path.length) continue; // a wrapped description
    path.length = indent / 2;
    for (const name of word.split(', ')) named.push([...path, name].join(''));
    path.push(word);
  }
  const listed = named.filter((name) => name.endsWith('/'));
  const folders = [
    ...foldersToList('mock/', ['mock/base/', 'mock/steps/', 'mock/doors/']),
    ...foldersToList('mock/steps/qa/', []),
    ...foldersToList('contract-tests/', []),
    ...foldersToList('test/', []),
  ];
  expect(folders.length).toBeGreaterThan(25);
  expect(folders.filter((folder) => !listed.includes(folder))).toEqual([]);
  // And nothing it names has gone: a file or folder moved or renamed is moved in the map too.
  expect(named.length).toBeGreaterThan(folders.length);
  expect(named.filter((name) => !existsSync(new URL(`../${name}`, import.meta.url)))).toEqual([]);
});
