/**
 * The Reliability guide's table (docs/reliability.md, which the package ships and its README
 * links) names, for every guarantee, the tests that prove it: a test
 * file in backquotes and, in double quotes, (part of) each test's title. This checks that every
 * row names at least one file, that each file exists, and that each quoted title is in one of the
 * row's files, so a renamed or deleted test cannot leave a guarantee unproven on paper.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

function reliabilityRows(): { guarantee: string; testedBy: string }[] {
  const section = readFileSync(join(root, 'docs', 'reliability.md'), 'utf8');
  if (!section.startsWith('# Reliability\n'))
    throw new Error('docs/reliability.md: no Reliability heading');
  return section
    .split('\n')
    .filter(
      (line) => line.startsWith('| ') && !line.startsWith('| Guarantee') && !/^\|-/.test(line),
    )
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
      return { guarantee: cells[1] ?? '', testedBy: cells[2] ?? '' };
    });
}

test('every guarantee in the Reliability guide names tests that exist', () => {
  const rows = reliabilityRows();
  expect(rows.length).toBeGreaterThan(10);
  const problems: string[] = [];
  for (const { guarantee, testedBy } of rows) {
    const row = guarantee.slice(0, 60);
    const files = [...testedBy.matchAll(/`([\w./-]+\.ts)`/g)].map((m) => m[1] as string);
    if (files.length === 0) problems.push(`${row}: names no test file`);
    const texts = files.flatMap((file) => {
      if (existsSync(join(root, file))) return [readFileSync(join(root, file), 'utf8')];
      problems.push(`${row}: ${file} does not exist`);
      return [];
    });
    for (const [, title] of testedBy.matchAll(/"([^"]+)"/g)) {
      if (!texts.some((text) => text.includes(title as string)))
        problems.push(`${row}: no test titled "${title}" in ${files.join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
});
