/**
 * Runs the suite against one target: a preflight request (a server that cannot be reached, or
 * refuses the key, is a usage problem, exit 2), the plan, every active check in order with the
 * observers watching each exchange, then the observers' verdicts.
 */
import {
  type ActiveCheck,
  CheckFailure,
  type ExchangeObserver,
  type ObserverCheck,
  SkipCheck,
} from '../checks/check.ts';
import type { CheckContext } from '../checks/check-context.ts';
import { allChecks } from '../checks/registry.ts';
import { listPetsRequest } from '../checks/requests.ts';
import { ContractUsageError } from '../cli/usage-error.ts';
import { type PlanName, pageSize } from '../contract/interface-facts.ts';
import { createBudget } from '../http/budget.ts';
import { createClient } from '../http/client.ts';
import { realClock } from '../http/clock.ts';
import type { Exchange } from '../http/exchange.ts';
import { createPacer, RateLimitedError } from '../http/pacer.ts';
import type { Target } from '../targets/target.ts';
import { isObserver, planRun } from './plan.ts';
import { AllowanceSpentError, isStopSignal } from './property.ts';
import type { CheckResult, SuiteResult } from './results.ts';
import { checkSeed, seededRandom } from './seeds.ts';

/** Options of one run. */
export interface SuiteOptions {
  readonly target: Target;
  readonly seed: number;
  /** Request budget, retries included. */
  readonly budget: number;
  /** Property runs; default as many as the budget allows, up to `maxRuns`. */
  readonly runs?: number;
  readonly maxRuns?: number;
  /** May create pets (default: only on loopback targets). */
  readonly writes?: boolean;
  /** Spend the key's window once on purpose (`--rate-limits`). */
  readonly rateLimits?: boolean;
  /** The key's plan (`--plan`), to check X-RateLimit-Limit against the plan table. */
  readonly plan?: PlanName;
  readonly only?: readonly string[];
  /** Checks never to run (`--skip`), reported as skipped. */
  readonly skip?: readonly string[];
  readonly timeoutMs?: number;
  /** Longest wait for Retry-After or X-RateLimit-Reset, in ms. */
  readonly maxWaitMs?: number;
  /** Prefix of created pets' names; default `contract-<time><random>-`. */
  readonly runPrefix?: string;
  /** Called with each result as soon as it is known. */
  readonly onResult?: (result: CheckResult) => void;
  /** Called with each exchange (tests use it to count requests). */
  readonly onExchange?: (exchange: Exchange) => void;
}

function newRunPrefix(random: () => number): string {
  const suffix = Math.floor(random() * 36 ** 3)
    .toString(36)
    .padStart(3, '0');
  return `contract-${Date.now().toString(36)}${suffix}-`;
}

function preflightProblem(target: Target, exchange: Exchange): string | undefined {
  const url = exchange.url;
  if (exchange.fault !== undefined) return `cannot reach ${url}: ${exchange.fault.message}`;
  const status = exchange.response?.status;
  if (status === 401 || status === 403)
    return `the server answered ${status} to GET ${url} with PETSTORE_API_KEY: check that the variable holds a valid key for ${target.baseUrl}`;
  if (status === 404)
    return `the server answered 404 to GET ${url}: check --base-url (it must be the base address, ending in /v1)`;
  return undefined;
}

/** Runs the suite and returns every check's result. Throws ContractUsageError when the server cannot be used. */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const started = performance.now();
  const { target } = options;
  const clock = target.clock ?? realClock;
  const random = seededRandom(options.seed);
  const runPrefix = options.runPrefix ?? newRunPrefix(random);
  const writes = options.writes ?? target.loopback;
  const budget = createBudget(options.budget);
  const pacer = createPacer({ clock, maxWaitMs: options.maxWaitMs ?? 90_000, random });

  const checks = allChecks;
  const observerStates = new Map<ObserverCheck, ExchangeObserver>();
  const violations = new Map<string, { message: string; exchange: Exchange }>();
  const client = createClient({
    route: (spec) => target.route(spec),
    ...(target.fetch === undefined ? {} : { fetch: target.fetch }),
    apiKey: target.apiKey,
    timeoutMs: options.timeoutMs ?? 10_000,
    budget,
    pacer,
    clock,
    onExchange(exchange) {
      for (const [check, state] of observerStates) {
        const message = state.observe(exchange);
        if (message !== undefined && !violations.has(check.id))
          violations.set(check.id, { message, exchange });
      }
      options.onExchange?.(exchange);
    },
  });

  // The two listings several checks read are sent once and shared.
  const memo = new Map<string, Promise<Exchange>>();
  const shared = (key: string, spec: () => ReturnType<typeof listPetsRequest>) => {
    let pending = memo.get(key);
    if (pending === undefined) {
      pending = client.send(spec());
      memo.set(key, pending);
    }
    return pending;
  };
  const defaultListing = () => shared('default', () => listPetsRequest());
  const listing = () => shared('full', () => listPetsRequest({ limit: pageSize.max }));

  const flags = {
    writes,
    rateLimitRun: options.rateLimits ?? false,
    plan: options.plan !== undefined,
    writesOffReason: target.loopback
      ? 'writes are off (--read-only)'
      : `read-only run on a non-loopback server: pass --allow-writes to create pets (named ${runPrefix}...; the interface has no delete)`,
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(options.skip === undefined ? {} : { skip: options.skip }),
  };

  // Observers watch from the first request on, the preflight included.
  const runFacts = options.plan === undefined ? {} : { plan: options.plan };
  const preliminary = planRun(checks, target, flags, { budget: options.budget, maxRuns: 1 });
  for (const entry of preliminary.checks) {
    if (entry.skipReason === undefined && isObserver(entry.check))
      observerStates.set(entry.check, entry.check.start(runFacts));
  }

  let preflight: Exchange;
  try {
    preflight = await defaultListing();
  } catch (error) {
    if (isStopSignal(error)) throw new ContractUsageError(`cannot start: ${error.message}`);
    throw error;
  }
  const problem = preflightProblem(target, preflight);
  if (problem !== undefined) throw new ContractUsageError(problem);

  // With --rate-limits, keep enough budget to spend one window (X-RateLimit-Limit) and recover.
  const windowSize = Number(preflight.response?.headers.get('X-RateLimit-Limit') ?? Number.NaN);
  const reserve = options.rateLimits && Number.isInteger(windowSize) ? windowSize + 2 : 0;
  const plan = planRun(checks, target, flags, {
    budget: Math.max(0, budget.left - reserve),
    maxRuns: options.maxRuns ?? 100,
    ...(options.runs === undefined ? {} : { runs: options.runs }),
  });

  const sharedValues = new Map<string, unknown>();
  const results: CheckResult[] = [];
  const report = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  let plannedLeft = plan.plannedRequests;

  for (const entry of plan.checks) {
    const { check } = entry;
    if (check.kind === 'observer') continue;
    const info = { id: check.id, kind: check.kind, title: check.title, source: check.source };
    if (entry.skipReason !== undefined) {
      report({ ...info, status: 'skip', reason: entry.skipReason, requests: 0, durationMs: 0 });
      continue;
    }
    const cost = check.cost.fixed + check.cost.perRun * plan.runs;
    plannedLeft -= cost;
    // Shrinking may use what the later checks do not need, up to 200 extra requests.
    const allowance = cost + Math.min(200, Math.max(0, budget.left - plannedLeft - cost));
    report(await runActive(check, { allowance, runs: plan.runs }));
  }

  for (const entry of plan.checks) {
    const { check } = entry;
    if (check.kind !== 'observer') continue;
    const info = {
      id: check.id,
      kind: check.kind,
      title: check.title,
      source: check.source,
      requests: 0,
      durationMs: 0,
    };
    if (entry.skipReason !== undefined) {
      report({ ...info, status: 'skip', reason: entry.skipReason });
      continue;
    }
    const violation = violations.get(check.id);
    if (violation !== undefined) {
      report({
        ...info,
        status: check.advisory ? 'warn' : 'fail',
        failure: { message: violation.message, exchange: violation.exchange },
      });
      continue;
    }
    const unseen = observerStates.get(check)?.unseenReason();
    report(
      unseen === undefined
        ? { ...info, status: 'pass' }
        : { ...info, status: 'skip', reason: unseen },
    );
  }

  return {
    target: target.name,
    baseUrl: target.baseUrl,
    seed: options.seed,
    runs: plan.runs,
    runPrefix,
    writes,
    results,
    requests: client.stats.requests,
    answered429: client.stats.answered429,
    waitedMs: pacer.waitedMs,
    virtualTime: target.clock !== undefined,
    durationMs: performance.now() - started,
  };

  async function runActive(
    check: ActiveCheck,
    sizing: { allowance: number; runs: number },
  ): Promise<CheckResult> {
    const checkStarted = performance.now();
    let sent = 0;
    const context: CheckContext = {
      target,
      client,
      runs: sizing.runs,
      seed: checkSeed(options.seed, check.id),
      runPrefix,
      writes,
      shared: sharedValues,
      async send(spec, sendOptions) {
        if (sent >= sizing.allowance) throw new AllowanceSpentError();
        sent += 1;
        return client.send(spec, sendOptions);
      },
      listing,
      defaultListing,
    };
    const base = { id: check.id, kind: check.kind, title: check.title, source: check.source };
    const finish = (rest: Pick<CheckResult, 'status'> & Partial<CheckResult>): CheckResult => ({
      ...base,
      requests: sent,
      durationMs: performance.now() - checkStarted,
      ...rest,
    });
    try {
      await check.run(context);
      return finish({ status: 'pass' });
    } catch (error) {
      if (error instanceof CheckFailure)
        return finish({ status: check.advisory ? 'warn' : 'fail', failure: error.details });
      if (error instanceof SkipCheck) return finish({ status: 'skip', reason: error.message });
      if (isStopSignal(error))
        return finish({
          status: 'skip',
          reason: `stopped: ${error.message}`,
          ...(error instanceof RateLimitedError ? { stoppedByRateLimit: true } : {}),
        });
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return finish({
        status: 'fail',
        failure: { message: `harness error (please report): ${message}` },
      });
    }
  }
}
