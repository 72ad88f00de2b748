import { expect, test } from 'vitest';
import { activeCheck, costAt, priorities } from '../checks/check.ts';
import { allChecks } from '../checks/registry.ts';
import type { Target } from '../http/target.ts';
import { testTarget } from '../targets/test-target.ts';
import { conformanceCost, type RunFlags, selectChecks, sizeRuns } from './plan.ts';

const target = testTarget;
const flags: RunFlags = { writes: true, rateLimitRun: false, writesOffReason: 'read-only run' };

const check = (id: string, priority: number, perRun = 1, examples = 0) =>
  activeCheck({
    id,
    title: id,
    source: 'test',
    priority,
    cost: { fixed: 1, perRun, examples },
    run: async () => {},
  });

test('active checks run by priority, equal priorities in registry order', () => {
  const checks = [
    check('late.a', priorities.rateLimitRun),
    check('first.a', priorities.listPets),
    check('mid.a', priorities.createPet),
    check('first.b', priorities.listPets),
  ];
  const { active } = selectChecks(checks, target, flags);
  expect(active.map((entry) => entry.id)).toEqual(['first.a', 'first.b', 'mid.a', 'late.a']);
});

test('in a whole run, writing or not, the requests without a key fill three gaps between checks with the key (a window turning over hides one)', () => {
  for (const writes of [true, false]) {
    const { active } = selectChecks(allChecks, target, { ...flags, writes });
    // Each maximal stretch of keyless checks is one gap rateLimit.othersNotCounted can judge.
    const gaps = active
      .map((check) => (check.cost.withoutKey === true ? check.id : '|'))
      .join(' ')
      .split('|')
      .map((stretch) => stretch.trim())
      .filter((stretch) => stretch !== '');
    expect(gaps, `writes ${writes}`).toEqual([
      'auth.missingKey errors.largeRequests',
      'auth.unknownKey',
      'auth.malformedHeader',
    ]);
  }
});

test('skips are sorted into kinds: opt-in flags not selected, missing capabilities not applicable', () => {
  const stateless: Target = {
    ...target,
    capabilities: {
      semantics: false,
      rateLimits: false,
      missingReasons: { semantics: 'no state' },
    },
  };
  const { skipped } = selectChecks(allChecks, stateless, { ...flags, writes: false });
  const kindOf = (id: string) => skipped.find((entry) => entry.check.id === id);
  expect(kindOf('listPets.statusFilter')).toMatchObject({
    kind: 'not-applicable',
    reason: 'no state',
  });
  expect(kindOf('createPet.created')).toMatchObject({
    kind: 'not-selected',
    reason: 'read-only run',
  });
  expect(kindOf('rateLimit.exceededGives429')?.kind).toBe('not-selected');
  expect(kindOf('rateLimit.planLimits')?.reason).toMatch(/^opt-in: --plan/);
  expect(kindOf('prism.exchangesValid')?.reason).toMatch(/^opt-in: --via-prism/);
  expect(kindOf('listPets.responseShape')).toBeUndefined();
});

test('--only and --skip quote what the user typed', () => {
  const { skipped, active, observers } = selectChecks(allChecks, target, {
    ...flags,
    only: ['listPets.'],
    skip: ['listPets.unknownStatus'],
  });
  expect(active.every((entry) => entry.id.startsWith('listPets.'))).toBe(true);
  expect(observers.length).toBeGreaterThan(5);
  const reasonOf = (id: string) => skipped.find((entry) => entry.check.id === id)?.reason;
  expect(reasonOf('getPet.found')).toBe('not in --only listPets.');
  expect(reasonOf('listPets.unknownStatus')).toBe('--skip listPets.unknownStatus');
});

test('a property costs fixed + perRun x max(runs, examples): its pinned examples always run', () => {
  expect(costAt({ fixed: 1, perRun: 2, examples: 3 }, 1)).toBe(7);
  expect(costAt({ fixed: 1, perRun: 2, examples: 3 }, 10)).toBe(21);
  expect(costAt({ fixed: 3, perRun: 0 }, 100)).toBe(3);
});

test('shared probes are planned once, however many checks read them', () => {
  const { active } = selectChecks(allChecks, target, {
    ...flags,
    only: ['getPet.responseShape', 'getPet.found'],
  });
  // The full listing and the listed pet by id: two requests for both checks together.
  expect(conformanceCost(active, 1)).toBe(2);
});

test('sizing finds the most runs that fit, and never drops a check to fit', () => {
  const checks = [check('a.a', 10, 2), check('b.b', 20, 3, 4)];
  // runs r costs 1 + 2r + 1 + 3 max(r, 4).
  expect(sizeRuns(checks, { available: 100, maxRuns: 100 })).toMatchObject({
    fits: true,
    runs: 19,
  });
  expect(sizeRuns(checks, { available: 16, maxRuns: 100 })).toMatchObject({ fits: true, runs: 1 });
  expect(sizeRuns(checks, { available: 15, maxRuns: 100 })).toEqual({ fits: false, needed: 16 });
  expect(sizeRuns(checks, { available: 10_000, maxRuns: 100 })).toMatchObject({ runs: 100 });
  expect(sizeRuns(checks, { available: 10_000, maxRuns: 100, runs: 7 })).toMatchObject({ runs: 7 });
});

test("the default selection at one run fits a Free key's minute: 59 requests with the key after the preflight, 10 without a valid key", () => {
  const { active } = selectChecks(allChecks, target, flags);
  expect(conformanceCost(active, 1, 'withKey')).toBeLessThanOrEqual(59);
  expect(conformanceCost(active, 1) - conformanceCost(active, 1, 'withKey')).toBe(10);
  expect(active.map((entry) => entry.id)).toContain('createPet.concurrentCreates');
});
