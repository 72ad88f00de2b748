/** What a run stopped mid-way says: a failure among the finished checks is a verdict, else none. */
import { expect, test } from 'vitest';
import type { CheckResult } from '../runner/results.ts';
import { stoppedRunOutcome } from './stopped-run.ts';

function check(id: string, status: CheckResult['status']): CheckResult {
  return {
    id,
    kind: 'active',
    title: id,
    source: 'test',
    status,
    requests: 1,
    durationMs: 1,
    ...(status === 'fail' || status === 'warn' ? { failure: { message: `${id} broke` } } : {}),
  } as CheckResult;
}

const base = {
  reason: 'SIGTERM' as const,
  target: 'http://127.0.0.1:1/v1',
  baseUrl: 'http://127.0.0.1:1/v1',
  seed: 1,
  writes: false,
  requests: 7,
  startedAt: Date.now(),
};

test('a stopped run with only passes so far has no verdict: exit 2, and says the rest say nothing', () => {
  const outcome = stoppedRunOutcome({ ...base, finished: [check('a.one', 'pass')] }, false);
  expect(outcome.code).toBe(2);
  expect(outcome.message).toBe(
    'petstore-contract: stopped (SIGTERM) before the run finished, after 1 check(s) and 7 request(s): no verdict; the checks that had not finished say nothing',
  );
  expect(outcome.suite.results).toHaveLength(1);
});

test('a stopped run in which a finished check failed breaks the interface: exit 1 naming it; a warning only with strict', () => {
  const failed = stoppedRunOutcome(
    { ...base, finished: [check('a.one', 'pass'), check('b.two', 'fail')] },
    false,
  );
  expect(failed.code).toBe(1);
  expect(failed.message).toContain('the server breaks the interface (b.two)');
  const warned = [check('c.three', 'warn')];
  expect(stoppedRunOutcome({ ...base, finished: warned }, false).code).toBe(2);
  expect(stoppedRunOutcome({ ...base, finished: warned }, true).code).toBe(1);
});
