/**
 * A vitest reporter that ends the run with one plain line, `vitest: N passed, N failed`, which CI
 * systems and people grepping logs can read without parsing vitest's coloured summary.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** Counts test outcomes across the run and prints the closing line. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (module.state() === 'failed' && module.children.size === 0) failed += 1; // a file that failed to load
    }
    process.stdout.write(
      `vitest: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
