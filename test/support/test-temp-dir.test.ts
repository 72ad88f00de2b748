import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import setup from './test-temp-dir.ts';

test('this run writes its temporary files in a folder of its own, and so do the processes it starts', () => {
  expect(basename(tmpdir())).toMatch(/^petstore-test-run-/);
  const child = spawnSync(process.execPath, ['-e', 'console.log(require("node:os").tmpdir())'], {
    encoding: 'utf8',
  });
  expect(child.stdout.trim()).toBe(tmpdir());
});

test("the teardown removes the run's folder with everything in it and restores TMPDIR", () => {
  const before = process.env.TMPDIR;
  const teardown = setup();
  const folder = tmpdir();
  expect(dirname(folder)).toBe(before);
  mkdirSync(join(folder, 'state'));
  writeFileSync(join(folder, 'state', 'state.jsonl'), '{}\n');
  teardown();
  expect(existsSync(folder)).toBe(false);
  expect(process.env.TMPDIR).toBe(before);
});
