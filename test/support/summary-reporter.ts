/**
 * A vitest reporter that ends the run with one plain line, `vitest: N passed, N failed`, which CI
 * systems and people grepping logs can read without parsing vitest's coloured summary.
 */
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/** Counts test outcomes across the run and prints the closing line. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: readonly TestModule[],
    unhandledErrors: readonly SerializedError[] = [],
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    // A file can fail with none of its tests failed (an import or beforeAll error skips them all):
    // the line must still say the run failed.
    let failedFiles = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      failed += failedHere;
      if (module.state() === 'failed' && failedHere === 0) failedFiles += 1;
    }
    const extra = [
      skipped > 0 ? `${skipped} skipped` : '',
      failedFiles > 0
        ? `${failedFiles} file${failedFiles === 1 ? '' : 's'} failed outside a test`
        : '',
      unhandledErrors.length > 0 ? `${unhandledErrors.length} unhandled errors` : '',
    ].filter(Boolean);
    process.stdout.write(
      `vitest: ${passed} passed, ${failed} failed${extra.map((part) => `, ${part}`).join('')}\n`,
    );
  }
}
