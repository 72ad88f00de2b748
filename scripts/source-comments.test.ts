/**
 * Comments say why, about the code as it is; the history goes to git and bench/optimisations.md
 * (STYLE.md, "Comments and types"). Every comment of every source file of mock/, contract-tests/,
 * scripts/, bench/ and test/ (and the configuration files at the root) is held to these rules,
 * each a pattern that names history or a measurement, never a constant the code sets:
 *
 * - a calendar date (`2026-11-25`, `2026-11-28 02:59`); a timestamp a test pins
 *   (`2026-01-01T00:00:00Z`) is the value of a constant and stays;
 * - `until` followed by a point in history (a number, `issue`, `now`, `recently`, a commit, a
 *   version or a release); a `until` of what the code does ("waits until it answers") stays;
 * - the word `issue` (not `issues`): where a rule came from is the commit's to say;
 * - `no longer` (not `no longer than`), `previously`, `formerly`: what the code did before;
 * - a measured figure: micro- or nanoseconds (`15 µs`), requests a second (`req/s`), a ratio
 *   (`0.6x`), a time per request (`2 ms a request`), a cost (`costs 0.4 s`), a change (`from 75
 *   to 700 MiB`, `29 → 8.6 µs`), a share of speed (`40% faster`, `12% of the samples`), or a
 *   measurement word (`measured`, `took`, `benchmarked`, `profiled`) with a figure in its
 *   sentence. A constant explained in its unit ("a 30 s time-out", "Default 1 MiB", RFC 9110's
 *   8,000 octets, "every other request at least 1.2 times its req/s") matches none of them.
 *
 * String literals, template literals and test names are not comments (source-comments.ts). This
 * file's own comments name the patterns, so it is left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { sourceComments } from './source-comments.ts';

const root = resolve(import.meta.dirname, '..');
const folders = ['mock', 'contract-tests', 'scripts', 'bench', 'test'];

/** A number as comments write it: `15`, `0.6`, `1,024`. */
const figure = String.raw`(?<![\w.,])\d(?:[\d.,]*\d)?`;

/** Each rule: what it names, and the pattern a comment's text must not match. */
const rules: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'a date', pattern: /\b\d{4}-\d{2}-\d{2}\b/ },
  {
    name: '"until" a point in history',
    pattern: /\buntil\s+(?:\d|issue\b|now\b|recently\b|commit\b|version\b|v\d|release\b)/i,
  },
  { name: 'an issue reference', pattern: /\bissue\b/i },
  {
    name: 'what the code did before',
    pattern: /\bno longer\b(?! than)|\bpreviously\b|\bformerly\b/i,
  },
  {
    name: 'a figure in micro- or nanoseconds',
    pattern: new RegExp(`${figure}\\s*(?:µs|us|ns)\\b`),
  },
  {
    name: 'a throughput',
    pattern: new RegExp(`${figure}\\s*req/s\\b|${figure} requests? (?:a|per) second\\b`),
  },
  { name: 'a ratio', pattern: new RegExp(`${figure}x\\b`) },
  {
    name: 'a time per request',
    pattern: new RegExp(`${figure}\\s*ms (?:a|per|each) (?:request|create|call)\\b`),
  },
  {
    name: 'a cost',
    pattern: new RegExp(
      `\\bcosts? (?:about |only |nearly )?${figure}\\s*(?:µs|ms|s|KiB|MiB|KB|MB|bytes)\\b`,
    ),
  },
  {
    name: 'a change measured',
    pattern: new RegExp(
      `(?:\\bfrom ${figure} to|${figure}\\s*→)\\s*${figure}\\s*(?:µs|ms|KiB|MiB|GiB|KB|MB|GB|%|req/s|bytes)`,
    ),
  },
  {
    name: 'a share of speed',
    pattern: new RegExp(
      `${figure}%\\s+(?:faster|slower|less|more|of the (?:samples|ceiling|time|CPU))\\b`,
      'i',
    ),
  },
  {
    name: 'a measurement with a figure',
    pattern: /\b(?:measured|took|benchmarked|profiled)\b[^.;:]*\d/i,
  },
];

/** The source files held to the rules, relative to the root. */
function sourceFiles(): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === 'node_modules') return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return files(path);
      return /\.(?:ts|cjs)$/.test(entry.name) ? [relative(root, path)] : [];
    });
  const atRoot = readdirSync(root).filter((name) => /\.(?:ts|cjs)$/.test(name));
  const all = [...atRoot, ...folders.flatMap((folder) => files(join(root, folder)))];
  return all.filter((file) => file !== relative(root, import.meta.filename));
}

/**
 * Where `text` (one comment, starting on `line`) breaks a rule, each breach with its own line. A
 * comment's lines are read as one text, so a date or a figure cut by a line break is still seen.
 */
function breaches(text: string, line: number): string[] {
  const lines = text.split('\n');
  const starts: number[] = [];
  let joined = '';
  for (const part of lines) {
    starts.push(joined.length);
    joined += `${part.replace(/^\s*(?:\/\/+|\/?\*+\/?)?\s?/, '')} `;
  }
  const lineAt = (offset: number) => line + starts.filter((start) => start <= offset).length - 1;
  return rules.flatMap(({ name, pattern }) => {
    const found = pattern.exec(joined);
    return found === null ? [] : [`${lineAt(found.index)}: ${name}: "${found[0]}"`];
  });
}

test('no source comment carries a date, an issue, a history or a measured figure', () => {
  const files = sourceFiles();
  expect(files.length).toBeGreaterThan(300);
  const found: string[] = [];
  for (const file of files) {
    for (const comment of sourceComments(readFileSync(join(root, file), 'utf8'))) {
      for (const breach of breaches(comment.text, comment.line)) found.push(`${file}:${breach}`);
    }
  }
  expect(found).toEqual([]);
});

test('the rules catch history and measurements, not constants or strings', () => {
  const caught = (source: string) =>
    sourceComments(source).flatMap((comment) => breaches(comment.text, comment.line));
  expect(caught('// (Until 2026-11-25 every pet also went through a collection.)')).toHaveLength(2);
  expect(caught('/** The offset issue 38 saw. */')).toEqual(['1: an issue reference: "issue"']);
  expect(caught('/**\n * about 15 µs a create\n */')).toEqual([
    '2: a figure in micro- or nanoseconds: "15 µs"',
  ]);
  expect(caught('// served 0.6x the req/s of a Buffer')).toEqual(['1: a ratio: "0.6x"']);
  expect(caught('/* once took the fake from 75 to\n   700 MiB */')).toHaveLength(2);
  expect(caught('// redacting a 1 MiB body costs 0.4 s')).toEqual(['1: a cost: "costs 0.4 s"']);
  expect(caught('// 20 pets 9.8 → 4.6 µs a call')).toHaveLength(2);
  const constants = [
    '// Polls until it answers 200, a 30 s time-out. Default 1 MiB, 8 KiB.',
    '// Sent at 2026-01-01T00:00:00Z; held 0 to 60,000 ms; 100 -> 200 doubles.',
    '// A name no longer than the cap; every other request at least 1.2 times its req/s.',
  ];
  expect(constants.flatMap(caught)).toEqual([]);
  expect(caught('// It held the old record until now.')).toEqual([
    '1: "until" a point in history: "until now"',
  ]);
  // A template literal whose placeholder holds a string: `/* ${'// 1.5x'} */`.
  const template = ['const t = `/* $', "{'// 1.5x'} */`;"].join('');
  expect(caught(`const s = '// 2026-11-25 issue 38 15 µs'; ${template}`)).toEqual([]);
  expect(caught('const r = /\\/\\/ 2026-11-25/; // a regex, then a comment')).toEqual([]);
});
