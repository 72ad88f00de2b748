/**
 * Runs the suite against one target, in stages: select the checks, start the client, the
 * observers and the active checks' judges (judge-watch.ts), send the preflight, decide the budget
 * and the runs, run the active checks in plan order, then collect the judged checks' and the
 * observers' verdicts, which only the whole run's traffic settles.
 */
import type { RunFacts } from '../checks/check.ts';
import type { RateLimitRunState } from '../checks/check-context.ts';
import { hasJudge } from '../checks/judge-observer.ts';
import { allChecks } from '../checks/registry.ts';
import type { SuiteChoices } from '../checks/suite-choices.ts';
import { type ActiveRun, runActiveCheck } from './active-checks.ts';
import { watchJudges } from './judge-watch.ts';
import { watchForNotAPetStore } from './not-a-pet-store.ts';
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
  /**
   * Called with each result once it is final: an active check without a judge when it ends, the
   * others (their judges and the observers hold every exchange of the run) when the run does.
   */
  readonly onResult?: (result: CheckResult) => void;
  /**
   * Called once the run has started, with what the run would report if it were stopped now:
   * every active check that finished, its judge settled on the exchanges so far.
   */
  readonly onStarted?: (finishedSoFar: () => CheckResult[]) => void;
  /**
   * Called once the first answers show that nothing at the base URL answers as a Pet Store
   * (not-a-pet-store.ts), with the lines that say so and what to check.
   */
  readonly onNotAPetStore?: (lines: readonly string[]) => void;
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
  // Drawn from the seed's stream before the first request, so a seed replays the waits too.
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
  // Observers and judges watch from the first request on, the preflight included. What they may
  // expect to see is what the selected checks send: a window spent only if its checks run at all.
  const watched: RunFacts = {
    ...facts,
    rateLimitRun: selection.active.some(spendsWindow),
    ...((options.only?.length ?? 0) + (options.skip?.length ?? 0) > 0 ? { narrowed: true } : {}),
  };
  const observation = observe(selection.observers, watched);
  // A mock made from the document answers its examples, whatever was asked: there each check
  // judges only what it sent for its rule, as it knows to (capabilities.semantics).
  const judges = watchJudges(
    target.capabilities.semantics ? selection.active.filter(hasJudge) : [],
    watched,
  );
  /** The active check running, which sends every exchange until the next one starts. */
  let sender: string | undefined;
  options.client.watch((exchange) => {
    observation.see(exchange);
    judges.see(exchange, sender);
  });
  const finished: CheckResult[] = [];
  options.onStarted?.(() => judges.settle(finished));
  const { budget } = client;
  const probes = createSharedProbes(client);

  const first = await preflight(target.baseUrl, probes.defaultListing);
  let foreign: readonly string[] | undefined;
  options.client.watch(
    watchForNotAPetStore(target.baseUrl, first, (lines) => {
      foreign = lines;
      options.onNotAPetStore?.(lines);
    }),
  );
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
  for (const check of selection.active) {
    sender = check.id;
    const result = await runActiveCheck(check, run);
    finished.push(result);
    if (!hasJudge(check)) options.onResult?.(result);
  }
  const settled = judges.settle(finished);
  for (const [index, check] of selection.active.entries())
    if (hasJudge(check)) options.onResult?.(settled[index] as CheckResult);
  const results: CheckResult[] = [...settled];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
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
    ...(foreign === undefined ? {} : { notAPetStore: foreign }),
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
