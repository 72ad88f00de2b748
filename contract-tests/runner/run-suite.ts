/**
 * Runs the suite against one target, in stages: select the checks, start the client and the
 * observers, send the preflight, decide the budget and the runs, run the active checks in plan
 * order, then collect the observers' verdicts.
 */
import type { RunFacts } from '../checks/check.ts';
import type { RateLimitRunState } from '../checks/check-context.ts';
import { allChecks } from '../checks/registry.ts';
import type { PlanName } from '../contract/interface-facts.ts';
import type { Exchange } from '../http/exchange.ts';
import type { PacerWait } from '../http/pacer.ts';
import type { Target } from '../targets/target.ts';
import { type ActiveRun, runActiveCheck } from './active-checks.ts';
import { observe } from './observation.ts';
import { conformanceCost, selectChecks, spendsWindow } from './plan.ts';
import { preflight } from './preflight.ts';
import type { CheckResult, SuiteResult } from './results.ts';
import { decideBudget } from './run-budget.ts';
import { createRunClient } from './run-client.ts';
import { seededRandom } from './seeds.ts';
import { createSharedProbes } from './shared-probes.ts';

/** Options of one run. */
export interface SuiteOptions {
  readonly target: Target;
  readonly seed: number;
  /** Request budget, retries included (`--budget`); default from the key's window. */
  readonly budget?: number;
  /** Property runs (`--runs`); default as many as the budget allows, up to `maxRuns`. */
  readonly runs?: number;
  readonly maxRuns?: number;
  /** May create pets (default: only on loopback targets). */
  readonly writes?: boolean;
  /** Spend the key's window once on purpose (`--rate-limits`). */
  readonly rateLimits?: boolean;
  /** The key's plan (`--plan`), to check X-RateLimit-Limit against the plan table. */
  readonly plan?: PlanName;
  /** `--plan2`: the plan of the target's second key. */
  readonly plan2?: PlanName;
  readonly only?: readonly string[];
  /** Checks never to run (`--skip`). */
  readonly skip?: readonly string[];
  readonly timeoutMs?: number;
  /** Longest wait for Retry-After or X-RateLimit-Reset, in ms. */
  readonly maxWaitMs?: number;
  /**
   * The run's bound in ms (`--max-duration`), on the target's clock: past it no request is sent
   * and no wait begins, and the checks left could not run. Default: no bound.
   */
  readonly maxDurationMs?: number;
  /** Most body bytes read per answer. */
  readonly maxBodyBytes?: number;
  /** Prefix of created pets' names; default `contract-<time><random>-`. */
  readonly runPrefix?: string;
  /** Redacts the key from response previews. */
  readonly redact?: (text: string) => string;
  /** Called with each result as soon as it is known. */
  readonly onResult?: (result: CheckResult) => void;
  /** Called with each exchange (tests count requests; `--log` writes them). */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Called before each wait longer than a second. */
  readonly onWait?: (wait: PacerWait) => void;
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
  const { target } = options;
  const random = seededRandom(options.seed);
  const runPrefix = options.runPrefix ?? newRunPrefix(random);
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
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(options.skip === undefined ? {} : { skip: options.skip }),
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
  const { client, budget, pacer } = createRunClient({
    target,
    random,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
    ...(options.maxDurationMs === undefined ? {} : { maxDurationMs: options.maxDurationMs }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    onExchange(exchange) {
      observation.see(exchange);
      options.onExchange?.(exchange);
    },
  });
  const probes = createSharedProbes(client);

  await preflight(target.baseUrl, probes.defaultListing);
  const decided = decideBudget({
    active: selection.active,
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.runs === undefined ? {} : { runs: options.runs }),
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
    seed: options.seed,
    runs: decided.runs,
    runPrefix,
    writes,
    rateLimitRun,
    ...(options.plan2 === undefined ? {} : { secondPlan: options.plan2 }),
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
    seed: options.seed,
    runs: decided.runs,
    runPrefix,
    writes,
    results,
    budget: { limit: budget.limit, source: budget.source },
    requests: client.stats.requests,
    keyRequests: client.stats.keyRequests,
    answered429: client.stats.answered429,
    waitedMs: pacer.waitedMs,
    virtualTime: target.clock !== undefined,
    durationMs: performance.now() - started,
  };
}
