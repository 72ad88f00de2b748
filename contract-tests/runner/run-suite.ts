/**
 * Runs the suite against one target, in stages: select the checks, start the client and the
 * observers, send the preflight, decide the budget and the runs, run the active checks in plan
 * order, then collect the observers' verdicts.
 */
import type { RunFacts } from '../checks/check.ts';
import type { RateLimitRunState } from '../checks/check-context.ts';
import { allChecks } from '../checks/registry.ts';
import type { SuiteChoices } from '../checks/suite-choices.ts';
import { type ActiveRun, runActiveCheck } from './active-checks.ts';
import { observe } from './observation.ts';
import { conformanceCost, selectChecks, spendsWindow } from './plan.ts';
import { preflight } from './preflight.ts';
import type { CheckResult, SuiteResult } from './results.ts';
import { decideBudget } from './run-budget.ts';
import type { RunClient } from './run-client.ts';
import { createSharedProbes } from './shared-probes.ts';

/** Options of one run: its client, built by whoever starts the run, what to check, and whom to tell. */
export interface SuiteOptions extends SuiteChoices {
  /** The run's client (createRunClient): the target, the seed, the budget, waits and timeouts. */
  readonly client: RunClient;
  /** Called with each result as soon as it is known. */
  readonly onResult?: (result: CheckResult) => void;
  /** Called once the budget and runs are decided. */
  readonly onPlan?: (plan: { budget: number; budgetSource: string; runs: number }) => void;
}

function newRunPrefix(random: () => number): string {
  const suffix = Math.floor(random() * 36 ** 3)
    .toString(36)
    .padStart(3, '0');
  return `contract-${Date.now().toString(36)}${suffix}-`;
}

/** Runs the suite and returns every check's result. Throws ContractUsageError when the server cannot be used. */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const started = performance.now();
  const { target, client, pacer, seed } = options.client;
  // Drawn before the first request, as the seed's stream always was: the waits replay too.
  const runPrefix = options.runPrefix ?? newRunPrefix(options.client.random);
  const writes = options.writes ?? target.loopback;
  const facts: RunFacts = {
    writes,
    rateLimitRun: options.rateLimits ?? false,
    ...(options.plan === undefined ? {} : { plan: options.plan }),
  };

  const selection = selectChecks(allChecks, target, {
    ...facts,
    writesOffReason: target.loopback
      ? 'writes are off (--read-only)'
      : `opt-in: --allow-writes creates pets on a non-loopback server (named ${runPrefix}...; the interface has no delete)`,
    only: options.only,
    skip: options.skip,
  });
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  // Observers watch from the first request on, the preflight included. What they may expect to
  // see is what the selected checks send: a window spent only if its checks run at all.
  const observation = observe(selection.observers, {
    ...facts,
    rateLimitRun: selection.active.some(spendsWindow),
    ...((options.only?.length ?? 0) + (options.skip?.length ?? 0) > 0 ? { narrowed: true } : {}),
  });
  options.client.watch((exchange) => observation.see(exchange));
  const { budget } = client;
  const probes = createSharedProbes(client);

  await preflight(target.baseUrl, probes.defaultListing);
  const decided = decideBudget({
    active: selection.active,
    budget: options.client.fixedBudget,
    runs: options.runs,
    maxRuns: options.maxRuns ?? 100,
    loopback: target.loopback,
    quota: client.quota(),
    used: budget.used,
    rateLimited: target.capabilities.rateLimits,
  });
  budget.resize(decided.limit, decided.source);
  options.onPlan?.({ budget: decided.limit, budgetSource: decided.source, runs: decided.runs });

  const rateLimitRun: RateLimitRunState = {};
  const run: ActiveRun = {
    target,
    client,
    probes,
    seed,
    runs: decided.runs,
    runPrefix,
    writes,
    rateLimitRun,
    choices: options,
    plannedLeft: conformanceCost(selection.active, decided.runs),
  };
  for (const check of selection.active) report(await runActiveCheck(check, run));
  for (const verdict of observation.verdicts()) report(verdict);
  for (const { check, kind, reason } of selection.skipped)
    report({
      id: check.id,
      kind: check.kind,
      title: check.title,
      source: check.source,
      status: 'skip',
      skip: kind,
      reason,
      requests: 0,
      durationMs: 0,
    });

  return {
    target: target.name,
    baseUrl: target.baseUrl,
    seed,
    runs: decided.runs,
    runPrefix,
    writes,
    results,
    budget: { limit: budget.limit, source: budget.source },
    requests: client.stats.requests,
    keyRequests: client.stats.keyRequests,
    answered429: client.stats.answered429,
    waitedMs: pacer.waitedMs,
    ...(target.capabilities.selfTest === undefined
      ? {}
      : { selfTest: target.capabilities.selfTest }),
    virtualTime: target.clock !== undefined,
    durationMs: performance.now() - started,
  };
}
