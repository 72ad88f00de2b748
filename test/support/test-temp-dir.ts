/**
 * vitest global setup: one temporary folder for the whole run, removed when it ends. Test files
 * and the CLIs and servers they start make their files under `os.tmpdir()`; pointing `TMPDIR`
 * at this folder before any worker starts (workers and their children inherit it) keeps a run
 * from leaving its folders behind (state files, reports, profiles: dozens a run).
 * Runs after the Chromium setup, whose unpacked browser is meant to outlive the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Points `TMPDIR` at a fresh folder; the teardown it returns removes the folder and restores it. */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'petstore-test-run-'));
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}
