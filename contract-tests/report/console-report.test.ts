import { expect, test } from 'vitest';
import type { CheckResult, SuiteResult } from '../runner/results.ts';
import { formatResult, formatVerdict, useColour } from './console-report.ts';

test('colour only on a terminal, and never with NO_COLOR or a dumb terminal', () => {
  expect(useColour({ isTTY: true }, {})).toBe(true);
  expect(useColour({ isTTY: false }, {})).toBe(false);
  expect(useColour({}, {})).toBe(false);
  expect(useColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
  expect(useColour({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
});

const failed: CheckResult = {
  id: 'listPets.defaultLimit',
  kind: 'active',
  title: 'returns at most 20 pets when limit is omitted',
  source: 'GET /pets, rule 1',
  status: 'fail',
  failure: { message: 'GET /pets returned 25 pets' },
  requests: 1,
  durationMs: 1,
};

test('a coloured FAIL label is red; without colour the line is plain text', () => {
  const ansi = String.fromCharCode(27);
  expect(formatResult(failed, undefined, true)).toContain(`  ${ansi}[31mFAIL${ansi}[0m  listPets`);
  expect(formatResult(failed)).not.toContain(ansi);
  expect(formatResult(failed, { command: 'npm run contract -- --fake', seed: -5 })).toContain(
    'replay: npm run contract -- --fake --seed=-5 --only listPets.defaultLimit',
  );
});

function suite(results: CheckResult[]): SuiteResult {
  return {
    target: 't',
    baseUrl: 'http://h/v1',
    seed: 1,
    runs: 1,
    runPrefix: 'contract-x-',
    writes: false,
    results,
    budget: { limit: 60, source: '--budget 60' },
    requests: 1,
    keyRequests: 1,
    answered429: 0,
    waitedMs: 0,
    virtualTime: false,
    durationMs: 1,
  };
}

const { failure: _, ...unfailed } = failed;
const passed: CheckResult = { ...unfailed, status: 'pass' };
const skipped = (skip: NonNullable<CheckResult['skip']>): CheckResult => ({
  ...passed,
  id: `x.${skip}`,
  status: 'skip',
  skip,
  reason: 'why',
});

test('the verdict line says how many checks it rests on and what did not run', () => {
  expect(formatVerdict(suite([passed, skipped('not-selected'), skipped('not-exercised')]))).toBe(
    'petstore-contract: the server conforms to the interface in all 1 checks that ran (not run: 1 not selected, 1 not exercised)',
  );
  expect(formatVerdict(suite([passed, skipped('could-not-run')]))).toMatch(
    /^petstore-contract: incomplete: no check failed in the 1 that ran/,
  );
  expect(formatVerdict(suite([failed, skipped('could-not-run')]))).toBe(
    'petstore-contract: the server breaks the interface: 1 finding (1 rule broken) (see FAIL lines above)',
  );
});

test('a self-test against a mock of the document never says the server conforms: it says what it proved', () => {
  const mock = { ...suite([passed, skipped('not-applicable')]), selfTest: 'prism mock of x.yaml' };
  const line = formatVerdict(mock);
  expect(line).not.toMatch(/conforms/);
  expect(line).toBe(
    'petstore-contract: self-test: no false alarm from the 1 checks that ran against prism mock of x.yaml, which keeps no pets, takes any key and counts no requests (not run: 1 not applicable); this proves nothing of a server',
  );
  expect(formatVerdict({ ...mock, results: [failed] })).toMatch(
    /^petstore-contract: self-test failed/,
  );
});
