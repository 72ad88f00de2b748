/**
 * CONTRIBUTING.md's worked example of a stateful step with a control route and an npm start flag
 * is code of this repository: written where its first line says, it type-checks with the
 * repository's own settings (strict, exactOptionalPropertyTypes...) against the real types of
 * Policy, ControlRoutes and PolicyCommandLine, so the page cannot show an API that is gone.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const root = new URL('..', import.meta.url).pathname;

test("CONTRIBUTING.md's worked example of a stateful step type-checks where it says it goes", () => {
  const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const [example] = fencedBlocks(
    markdownSection(contributing, 'Architecture: layers, and what a change costs'),
  ).filter((block) => exampleFileName(block)?.startsWith('mock/steps/'));
  const file = example === undefined ? undefined : exampleFileName(example);
  expect(file).toBe('mock/steps/policies/in-flight-step.ts');
  // Beside the steps it imports, under a name no other test or tool reads, for this check only.
  const path = join(root, 'mock/steps/policies', `.worked-example-${process.pid}.ts`);
  const config = join(root, `.tsconfig.worked-example-${process.pid}.json`);
  try {
    writeFileSync(path, `${example?.text}\n`);
    writeFileSync(config, JSON.stringify({ extends: './tsconfig.json', include: [path] }));
    const run = spawnSync('npx', ['tsc', '-p', config], { cwd: root, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  } finally {
    rmSync(path, { force: true });
    rmSync(config, { force: true });
  }
}, 120_000);
