import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'petstore-output-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('writeOutputFile replaces a file in one step: a reader never sees it empty or cut, however often it looks', async () => {
  const file = join(dir, 'out.json');
  const small = `${JSON.stringify({ which: 'small' })}\n`;
  writeFileSync(file, small);
  // Another process rewrites the file, 4 MB and small in turn, as fast as it can for 1.5 s.
  const writer = spawn(process.execPath, [
    '--input-type=module',
    '-e',
    `import { writeOutputFile } from ${JSON.stringify(new URL('./output-path.ts', import.meta.url).pathname)};
     const big = JSON.stringify({ which: 'big', pad: 'x'.repeat(4 * 1024 * 1024) }) + '\\n';
     const end = Date.now() + 1500;
     for (let turn = 0; Date.now() < end; turn++) writeOutputFile(${JSON.stringify(file)}, turn % 2 === 0 ? big : ${JSON.stringify(small)});`,
  ]);
  const seen = { big: 0, small: 0 };
  const done = once(writer, 'exit');
  let running = true;
  void done.then(() => (running = false));
  while (running) {
    const text = readFileSync(file, 'utf8');
    // Cut or empty, this throws: the test fails with the text it saw.
    const { which } = JSON.parse(text) as { which: 'big' | 'small' };
    seen[which] += 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect((await done)[0]).toBe(0);
  expect(seen.big).toBeGreaterThan(0);
  expect(seen.small).toBeGreaterThan(0);
});
