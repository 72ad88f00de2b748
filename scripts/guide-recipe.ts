/**
 * A guide's recipe in a project made from the packed tarball (consumer-project.ts): the files of
 * one section written from its own code blocks into a folder of the project, and its shell lines
 * run there as written, with the Node that runs the tests first on PATH. The Jest and node:test
 * guides' tests (consumer-jest.test.ts, consumer-node-test.test.ts) run each recipe in a folder
 * of its own, so that one recipe's files never meet another's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type ConsumerProject, projectEnvironment } from './consumer-project.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

/** Writes the files of `heading`'s section of `guide` into `folder`; returns its shell blocks. */
export function writeRecipe(
  project: ConsumerProject,
  folder: string,
  guide: string,
  heading: string,
): string[] {
  const blocks = fencedBlocks(markdownSection(guide, heading));
  for (const block of blocks) {
    const file = exampleFileName(block);
    if (file === undefined) continue;
    mkdirSync(dirname(join(project.dir, folder, file)), { recursive: true });
    writeFileSync(join(project.dir, folder, file), `${block.text}\n`);
  }
  return blocks.filter((block) => block.lang === 'sh').map((block) => block.text);
}

/**
 * Runs a shell line in a folder of the project, as a user's terminal would: this Node first on
 * PATH, then the project's bins, and none of this vitest's variables (nor a NODE_OPTIONS or
 * JEST_ variable of the caller's). Prints how long it took; never throws.
 */
export function runInFolder(
  project: ConsumerProject,
  folder: string,
  line: string,
  env: Record<string, string> = {},
): { readonly code: number | null; readonly out: string } {
  const started = performance.now();
  const result = spawnSync('bash', ['-e', '-c', line], {
    cwd: join(project.dir, folder),
    encoding: 'utf8',
    // Nor the runners' own variables: a recipe sets NODE_OPTIONS itself where it needs it.
    env: { ...projectEnvironment(project.dir, /^NODE_OPTIONS$|^JEST_|^NODE_TEST/), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${folder}: \`${line}\` took ${seconds} s`);
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}
