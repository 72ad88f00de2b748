/**
 * The contract suite as vitest tests, written once and run against every door of the fake
 * (hono's `runTest({ newRouter })`): one test per check, named by its rule, over one run.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { allChecks } from './checks/registry.ts';
import type { SuiteChoices } from './checks/suite-choices.ts';
import type { Target } from './http/target.ts';
import { formatResult } from './report/console-report.ts';
import type { SuiteResult } from './runner/results.ts';
import { type ClientSettings, createRunClient } from './runner/run-client.ts';
import { runSuite } from './runner/run-suite.ts';

/** How to run the suite for one door. */
export interface SuiteCase {
  /** Names the door in test titles, e.g. `in-process`. */
  readonly door: string;
  readonly newTarget: () => Promise<Target>;
  /** The run's client settings: the seed, the budget... */
  readonly client: ClientSettings & { readonly seed: number };
  /** What the run checks (runs, rate limits, plans...). */
  readonly options?: SuiteChoices;
  /** Extra assertions on the whole run. */
  readonly afterRun?: (result: SuiteResult) => void;
}

/** Registers one vitest test per check, over a single run of the suite against the door. */
export function runContractSuite({ door, newTarget, client, options, afterRun }: SuiteCase): void {
  let target: Target;
  let result: SuiteResult;
  beforeAll(async () => {
    target = await newTarget();
    result = await runSuite({ ...options, client: createRunClient(target, client) });
  });
  afterAll(async () => {
    await target?.close();
  });

  test(`${door}: the run (seed ${client.seed}) ends without a failure`, () => {
    const failures = result.results.filter(
      (check) => check.status === 'fail' || check.status === 'warn',
    );
    expect(failures.map((check) => formatResult(check))).toEqual([]);
    afterRun?.(result);
  });

  for (const check of allChecks) {
    test(`${door}: ${check.id}: ${check.title}`, () => {
      const outcome = result.results.find((entry) => entry.id === check.id);
      expect(outcome, `${check.id} was not reported`).toBeDefined();
      expect(outcome?.status === 'fail' ? formatResult(outcome) : 'not failed').toBe('not failed');
    });
  }
}

/**
 * What a door's run without `--rate-limits`, `--plan` and `--via-prism` must show: only those
 * opt-in checks are skipped, every other check ran (and the run passed), and nothing got a 429.
 */
export function expectOnlyOptInsSkipped(result: SuiteResult): void {
  const skipped = result.results
    .filter((check) => check.status === 'skip')
    .map((check) => check.id);
  expect(skipped.sort()).toEqual(
    [
      'prism.exchangesValid',
      'rateLimit.planLimits',
      'rateLimit.exceededGives429',
      'rateLimit.retryAfterOn429',
      'rateLimit.servedAfterRetryAfter',
    ].sort(),
  );
  expect(result.answered429).toBe(0);
}

/**
 * What a `--rate-limits` run on a key with a small window must show: it waited for window resets
 * (on the fake's virtual clock), met exactly the one 429 it provoked on purpose, and the three
 * checks that need it passed.
 */
export function expectOneProvoked429(result: SuiteResult): void {
  expect(result.answered429).toBe(1);
  expect(result.waitedMs).toBeGreaterThan(60_000);
  const statusOf = (id: string) => result.results.find((check) => check.id === id)?.status;
  expect(statusOf('rateLimit.exceededGives429')).toBe('pass');
  expect(statusOf('rateLimit.servedAfterRetryAfter')).toBe('pass');
  expect(statusOf('rateLimit.retryAfterOn429')).toBe('pass');
}
