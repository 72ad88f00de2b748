import { defineConfig } from 'vitest/config';

// One config for every suite; `npm run test:unit|test:contract|test:browser` filter by path.
export default defineConfig({
  test: {
    include: [
      'mock/**/*.test.ts',
      'contract-tests/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Finds (or unpacks from npm) the Chromium of the browser tests, once per run; then gives
    // the run a temporary folder of its own, removed when it ends.
    globalSetup: ['./mock/doors/browser/chromium-global-setup.ts', './scripts/test-temp-dir.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
