/**
 * The harness guides' tables stay in step with the code: every check id and mode row
 * (docs/harness/checks.md) and every mutant (docs/harness/how-it-works.md) is listed.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import { checkIds } from './checks/registry.ts';
import { modeNames, modeRows } from './cli/mode-table.ts';

// The formatter pads table cells, so runs of spaces are compared as one.
const guide = (name: string) =>
  readFileSync(new URL(`../docs/harness/${name}`, import.meta.url), 'utf8').replace(/ {2,}/g, ' ');
const checks = guide('checks.md');
const howItWorks = guide('how-it-works.md');

test('the checks guide maps an interface rule to every check id', () => {
  expect(checkIds.filter((id) => !checks.includes(`| \`${id}\` |`))).toEqual([]);
});

test('the how-it-works guide lists every mutant with the check that catches it, and the score', () => {
  const missing = mutants.filter(
    (mutant) =>
      !howItWorks.includes(`| \`${mutant.name}\` | ${mutant.fault} | \`${mutant.expect}\``),
  );
  expect(missing.map((mutant) => mutant.name)).toEqual([]);
  expect(howItWorks).toContain(`### Mutant score: ${mutants.length} / ${mutants.length}`);
});

test('the checks guide says exactly which checks run in which mode, as the planner decides it', () => {
  const header = `| Check id | ${modeNames.map((mode) => (mode.startsWith('-') ? `\`${mode}\`` : mode)).join(' | ')} |`;
  expect(checks).toContain(header);
  const missing = modeRows()
    .map((row) => `| \`${row.id}\` | ${row.cells.join(' | ')} |`)
    .filter((line) => !checks.includes(line));
  expect(missing).toEqual([]);
});
