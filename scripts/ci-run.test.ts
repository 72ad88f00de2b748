/**
 * `.ci/run` is the quick start and nothing more: its commands are CONTRIBUTING.md's quick start's first
 * block (which the README's "Working on this repository" repeats), in order, less `npm start`
 * (which serves until stopped), with CI=true: Debian's redis-server when it is missing (`apt-get
 * update`, then the package), `npm install`, `npm test`; nothing installs a browser or anything
 * else behind the README's back, and each place that says how to set up says so.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';
import { shellCommands } from './shell-block.ts';

const contributing = readFileSync(new URL('../CONTRIBUTING.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ciRun = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

/** `a && b` split into `a`, `b`, except inside a subshell's parentheses. */
function andList(command: string): string[] {
  const parts: string[] = [];
  let [depth, start] = [0, 0];
  for (let index = 0; index < command.length; index++) {
    if (command[index] === '(') depth += 1;
    else if (command[index] === ')') depth -= 1;
    else if (depth === 0 && command.startsWith('&&', index)) {
      parts.push(command.slice(start, index));
      start = index + 2;
      index += 1;
    }
  }
  return [...parts, command.slice(start)];
}

/** The commands of a shell text without comments, each `a && b` split into `a`, `b`. */
function commandsOf(shell: string): string[] {
  return shellCommands(shell)
    .flatMap(({ command }) => andList(command.replace(/\s+#.*$/, '')))
    .map((command) => command.trim());
}

/** Debian's redis-server, installed when it is missing: the replica tests start their own. */
const redisServerLine =
  'command -v redis-server || (apt-get update && apt-get install -y redis-server)';

test(".ci/run runs the repository quick start's redis-server line, npm install and npm test with CI=true, and nothing else", () => {
  const [firstBlock] = fencedBlocks(markdownSection(contributing, 'Quick start')).filter(
    (block) => block.lang === 'sh',
  );
  const readmeCommands = commandsOf(firstBlock?.text ?? '').filter(
    (command) => command !== 'npm start',
  );
  expect(readmeCommands).toEqual([redisServerLine, 'npm install', 'npm test']);
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

test('every place that says how to set up names redis-server and how it gets installed', () => {
  const bench = readFileSync(new URL('../bench/README.md', import.meta.url), 'utf8');
  const [, ...comment] = ciRun.split('\n').filter((line) => line.startsWith('#'));
  const places = {
    'CONTRIBUTING.md': markdownSection(contributing, 'Quick start'),
    'README.md': markdownSection(readme, 'Working on this repository'),
    '.ci/run comment': comment.join(' '),
    'bench/README.md': bench,
  };
  for (const [where, text] of Object.entries(places)) {
    const plain = text.replace(/\s+/g, ' ');
    const says = {
      names: /Debian's `?redis-server/.test(plain),
      installs: plain.includes('apt-get update'),
    };
    expect({ where, ...says }).toEqual({ where, names: true, installs: true });
  }
});

test('the && split keeps a subshell whole', () => {
  expect(andList('a && (b && c) && d')).toEqual(['a ', ' (b && c) ', ' d']);
});
