import { defineConfig } from 'vitest/config';

// One config for every suite; `npm run test:unit|test:contract|test:browser` filter by path.
export default defineConfig({
  test: {
    include: [
      'mock/**/*.test.ts',
      'contract-tests/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // Two test files at once: most of the suite waits on processes, sockets, browsers and npm, so
    // a second worker shortens the wall time on this project's 2-core machines (vitest's default is
    // one fewer worker than cores: one).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Finds (or unpacks from npm) the Chromium of the browser tests, once per run; then gives
    // the run a temporary folder of its own, removed when it ends.
    globalSetup: ['./test/support/chromium-global-setup.ts', './test/support/test-temp-dir.ts'],
    // A test that asserted nothing fails (a condition or an empty loop skipped its `expect`).
    setupFiles: ['./test/support/every-test-asserts.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
