/** The README's tables stay in step with the code: every check id and every mutant is listed. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { checkIds } from './checks/registry.ts';
import { mutants } from './mutants/catalogue.ts';
import { modeNames, modeRows } from './runner/mode-table.ts';

// The formatter pads table cells, so runs of spaces are compared as one.
const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8').replace(/ {2,}/g, ' ');

test('the README maps an interface rule to every check id', () => {
  expect(checkIds.filter((id) => !readme.includes(`| \`${id}\` |`))).toEqual([]);
});

test('the README lists every mutant with the check that catches it, and the score', () => {
  const missing = mutants.filter(
    (mutant) => !readme.includes(`| \`${mutant.name}\` | ${mutant.fault} | \`${mutant.expect}\``),
  );
  expect(missing.map((mutant) => mutant.name)).toEqual([]);
  expect(readme).toContain(`### Mutant score: ${mutants.length} / ${mutants.length}`);
});

test('the README says exactly which checks run in which mode, as the planner decides it', () => {
  const header = `| Check id | ${modeNames.map((mode) => (mode.startsWith('-') ? `\`${mode}\`` : mode)).join(' | ')} |`;
  expect(readme).toContain(header);
  const missing = modeRows()
    .map((row) => `| \`${row.id}\` | ${row.cells.join(' | ')} |`)
    .filter((line) => !readme.includes(line));
  expect(missing).toEqual([]);
});
