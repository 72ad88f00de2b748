/**
 * `.ci/run` is the quick start and nothing more: its commands are CONTRIBUTING.md's quick start's first
 * block (which the README's "Working on this repository" repeats), in order, less `npm start`
 * (which serves until stopped), with CI=true; nothing installs a browser or anything else behind
 * the README's back.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';
import { shellCommands } from './shell-block.ts';

const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ciRun = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

/** The commands of a shell text without comments, each `a && b` split into `a`, `b`. */
function commandsOf(shell: string): string[] {
  return shellCommands(shell)
    .flatMap(({ command }) => command.replace(/\s+#.*$/, '').split(/\s*&&\s*/))
    .map((command) => command.trim());
}

test(".ci/run runs the repository quick start's npm install and npm test with CI=true, and nothing else", () => {
  const [firstBlock] = fencedBlocks(markdownSection(contributing, 'Quick start')).filter(
    (block) => block.lang === 'sh',
  );
  const readmeCommands = commandsOf(firstBlock?.text ?? '').filter(
    (command) => command !== 'npm start',
  );
  expect(readmeCommands).toEqual(['npm install', 'npm test']);
  // The script's own setup lines: strict mode, the repository root, the CI flag.
  const setup = ['set -euo pipefail', 'cd "$(dirname "$0")/.."', 'export CI=true'];
  const [shebang, ...body] = ciRun.split('\n');
  expect(shebang).toBe('#!/usr/bin/env bash');
  const commands = commandsOf(body.join('\n'));
  expect(commands.filter((command) => !setup.includes(command))).toEqual(readmeCommands);
  expect(commands).toEqual([...setup, ...readmeCommands]);
});

test("the README's quick start for this repository is CONTRIBUTING.md's, word for word", () => {
  const quickStart = (text: string, heading: string) =>
    fencedBlocks(markdownSection(text, heading)).find((block) => block.lang === 'sh')?.text;
  const fromReadme = quickStart(readme, 'Working on this repository');
  expect(fromReadme).toBeDefined();
  expect(fromReadme).toBe(quickStart(contributing, 'Quick start'));
});
