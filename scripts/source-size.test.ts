import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { sourceSizes, totalUnder } from './source-size.ts';

test('npm run size counts tracked hand-written TypeScript by folder, tests apart, and leaves generated, declaration and untracked files out', () => {
  const at = mkdtempSync(join(tmpdir(), 'source-size-'));
  const write = (path: string, lines: number) => {
    mkdirSync(join(at, path, '..'), { recursive: true });
    writeFileSync(
      join(at, path),
      `${Array.from({ length: lines }, (_, i) => `// ${i}`).join('\n')}\n`,
    );
  };
  write('mock/base/a.ts', 3);
  write('mock/base/a.test.ts', 2);
  write('mock/steps/b.ts', 5);
  write('mock/index.ts', 1);
  write('mock/base/contract/openapi.generated.ts', 100);
  write('contract-tests/c.ts', 4);
  write('contract-tests/suite.case.ts', 7);
  write('contract-tests/types.d.ts', 9);
  execFileSync('git', ['init', '-q'], { cwd: at });
  execFileSync('git', ['add', '.'], { cwd: at });
  write('mock/steps/untracked.ts', 50);
  const sizes = sourceSizes(at);
  expect(sizes).toEqual([
    { folder: 'contract-tests/', product: 4, tests: 7 },
    { folder: 'mock/ (entries)', product: 1, tests: 0 },
    { folder: 'mock/base/', product: 3, tests: 2 },
    { folder: 'mock/steps/', product: 5, tests: 0 },
  ]);
  expect(totalUnder(sizes, 'mock')).toEqual({ folder: 'mock', product: 9, tests: 2 });
});
