/**
 * vitest global setup: finds the run's Chromium once (unpacking the npm one if the system has
 * none), says in one line what it did, and provides it to the browser test files.
 */
import type { TestProject } from 'vitest/node';
import { findChromium } from './headless-chromium.ts';

/** Runs once before any test file. */
export default function setup(project: TestProject): void {
  const choice = findChromium();
  if ('note' in choice) console.log(choice.note);
  project.provide('chromium', choice);
}
