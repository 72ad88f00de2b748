/**
 * The committed worker script must be the one the installed msw ships: msw checks the script's
 * integrity at start and warns (or misbehaves) when the two drift apart. The fake's own worker in
 * front of it (public/fake-worker.js) is the one docs/browser.md tells users to save.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { fencedBlocks } from '../../../scripts/markdown-blocks.ts';

it('keeps mock/doors/browser/public/mockServiceWorker.js identical to the installed msw worker', () => {
  const committed = readFileSync(new URL('./public/mockServiceWorker.js', import.meta.url));
  const shipped = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'));
  expect(
    committed.equals(shipped),
    'mockServiceWorker.js is out of step with the installed msw: run `npx msw init mock/doors/browser/public` and commit the result',
  ).toBe(true);
});

/** A script's code without its comments, whitespace and trailing commas (the formatter's). */
function code(script: string): string {
  return script
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s+/g, '')
    .replace(/,\)/g, ')');
}

it("keeps docs/browser.md's fake-worker.js the code of the demo's public/fake-worker.js", () => {
  const guide = readFileSync(new URL('../../../docs/browser.md', import.meta.url), 'utf8');
  const blocks = fencedBlocks(guide).filter((block) =>
    block.text.trimStart().startsWith('// public/fake-worker.js'),
  );
  expect(blocks).toHaveLength(1);
  const served = readFileSync(new URL('./public/fake-worker.js', import.meta.url), 'utf8');
  expect(code(blocks[0]?.text ?? '')).toBe(code(served));
  expect(code(served)).toContain("importScripts('./mockServiceWorker.js')");
});
