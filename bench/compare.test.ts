/**
 * `bench/compare.ts`, run as a user runs it: this checkout (`.`) runs exactly as `npm start` runs
 * it (the bundle, with the start script's Node flags), a variant's own flags come after them, and
 * each variant gets its row.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('compare.ts', import.meta.url));
const { scripts } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { scripts: { start: string } };

test('this checkout runs as npm start runs it, and a variant adds its flags after', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      script,
      '--rounds',
      '1',
      '--duration',
      '1',
      '--requests',
      'get',
      'a=.',
      'b=.#--max-semi-space-size=4',
    ],
    { timeout: 60_000 },
  );
  const bundle = scripts.start.split(' ').at(-1) as string;
  expect(stdout).toContain(`a: ${scripts.start}\n`);
  expect(stdout).toContain(
    `b: ${scripts.start.replace(` ${bundle}`, ` --max-semi-space-size=4 ${bundle}`)}\n`,
  );
  const rows = [...stdout.matchAll(/^\| GET \/v1\/pets\/\{id\} \| (a|b) \| (\d+) \|/gm)];
  expect(rows.map((row) => row[1])).toEqual(['a', 'b']);
  for (const row of rows) expect(Number(row[2])).toBeGreaterThan(0);
}, 90_000);
