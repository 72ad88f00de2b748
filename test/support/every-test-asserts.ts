/**
 * Every test must assert: a test whose only `expect` sits under a branch it did not take, or in
 * a loop over nothing, fails instead of passing on nothing (vitest's `expect.hasAssertions`,
 * which counts each `expect` call, fast-check's properties included when they call `expect`).
 */
import { beforeEach, expect } from 'vitest';

beforeEach(() => {
  expect.hasAssertions();
});
