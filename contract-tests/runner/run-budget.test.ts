import { expect, test } from 'vitest';
import { allChecks } from '../checks/registry.ts';
import { testTarget } from '../targets/test-target.ts';
import { conformanceCost, selectChecks } from './plan.ts';
import { decideBudget } from './run-budget.ts';

const target = testTarget;
const select = (rateLimitRun: boolean) =>
  selectChecks(allChecks, target, { writes: true, rateLimitRun, writesOffReason: '' }).active;
const freeWindow = { remaining: 59, limit: 60 };

test("a remote run without --budget fits a Free key's minute", () => {
  const decided = decideBudget({
    active: select(false),
    maxRuns: 100,
    loopback: false,
    quota: freeWindow,
    used: 1,
  });
  // 60 requests with the key (the preflight's one included), and 10 without a valid key, which
  // draw on no key's window (rateLimit.othersNotCounted).
  expect(1 + conformanceCost(select(false), 1, 'withKey')).toBe(60);
  expect(decided).toMatchObject({ limit: 70, runs: 1 });
  expect(decided.source).toBe("the default budget (a Free key's minute, + 10 without a valid key)");
});

test('on loopback, a key whose window holds them gets 100 runs per property', () => {
  const active = select(false);
  const decided = decideBudget({
    active,
    maxRuns: 100,
    loopback: true,
    quota: { remaining: 9_999, limit: 10_000 },
    used: 1,
  });
  expect(decided.runs).toBe(100);
  expect(decided.limit).toBe(1 + conformanceCost(active, 100) + 200);
  // A Free key's window does not hold them: the budget rules.
  expect(
    decideBudget({ active, maxRuns: 100, loopback: true, quota: freeWindow, used: 1 }).runs,
  ).toBe(1);
});

test('with --rate-limits the window phase gets what the window still holds + 2, after every conformance check', () => {
  const active = select(true);
  const decided = decideBudget({
    active,
    maxRuns: 100,
    loopback: false,
    quota: freeWindow,
    used: 1,
  });
  expect(decided.runs).toBe(1);
  // Room for the worst case (the window rolled mid-run): a whole window + 2.
  expect(decided.limit).toBe(1 + decided.conformance + 60 + 2);
  expect(decided.source).toMatch(/then X-RateLimit-Limit 60 \+ 2 for --rate-limits/);
});

test('an explicit --budget too small for what was asked names the number needed', () => {
  const active = select(true);
  // The preflight, the conformance checks (59 with the key: the window's 59; 10 without a valid
  // key, which it does not count), one refused, one after Retry-After.
  expect(conformanceCost(active, 1, 'withKey')).toBe(59);
  const needed = 1 + conformanceCost(active, 1) + 2;
  expect(() =>
    decideBudget({ active, budget: 61, maxRuns: 100, loopback: false, quota: freeWindow, used: 1 }),
  ).toThrow(`--budget 61 is too small for the checks asked: they need at least ${needed} requests`);
  expect(
    decideBudget({
      active,
      budget: needed,
      maxRuns: 100,
      loopback: false,
      quota: freeWindow,
      used: 1,
    }).runs,
  ).toBe(1);
  expect(() =>
    decideBudget({
      active: select(false),
      budget: 30,
      maxRuns: 100,
      loopback: false,
      quota: freeWindow,
      used: 1,
    }),
  ).toThrow(
    /--budget 30 is too small .* rerun with --budget \d+, or narrow the run with --only or --skip/,
  );
});

test("no X-RateLimit-Remaining on the preflight is no evidence of a roomy window: a Free key's minute, even on loopback", () => {
  const active = select(false);
  const decided = decideBudget({ active, maxRuns: 100, loopback: true, quota: {}, used: 1 });
  // Not 100 runs per property (thousands of requests) against a server with IETF headers.
  expect(decided).toMatchObject({ limit: 70, runs: 1 });
  expect(decided.source).toBe(
    "the default budget (a Free key's minute: the preflight's answer had no X-RateLimit-Remaining, + 10 without a valid key)",
  );
  // A target that declares it enforces no limits (Prism's mock) keeps the roomy plan.
  expect(
    decideBudget({ active, maxRuns: 100, loopback: true, quota: {}, used: 1, rateLimited: false })
      .runs,
  ).toBe(100);
});
