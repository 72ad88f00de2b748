/**
 * The client of one run against a target, as the suite and calibrate both use it: a budget
 * (the preflight's until the plan sets it), a pacer on the target's clock, and the harness's
 * client wired to the target's route and fetch.
 */
import { createBudget, type RequestBudget } from '../http/budget.ts';
import { type ContractClient, createClient } from '../http/client.ts';
import { realClock } from '../http/clock.ts';
import type { Exchange } from '../http/exchange.ts';
import { createPacer, type Pacer, type PacerWait } from '../http/pacer.ts';
import type { Target } from '../targets/target.ts';

/** Options of a run's client. */
export interface RunClientOptions {
  readonly target: Target;
  /** `--budget`; without it, room for the preflight and its retries until the plan resizes it. */
  readonly budget?: number;
  readonly timeoutMs?: number;
  readonly maxWaitMs?: number;
  /** `--max-duration`, in ms: the run's bound (see createPacer). */
  readonly maxDurationMs?: number;
  readonly maxBodyBytes?: number;
  readonly redact?: (text: string) => string;
  readonly random: () => number;
  readonly onWait?: (wait: PacerWait) => void;
  readonly onExchange?: (exchange: Exchange) => void;
}

/** A run's client, its budget and its pacer. */
export interface RunClient {
  readonly client: ContractClient;
  readonly budget: RequestBudget;
  readonly pacer: Pacer;
}

/** Creates the client of a run. */
export function createRunClient(options: RunClientOptions): RunClient {
  const { target } = options;
  const clock = target.clock ?? realClock;
  const budget =
    options.budget === undefined
      ? createBudget(4, 'the preflight budget')
      : createBudget(options.budget, `--budget ${options.budget}`);
  const pacer = createPacer({
    clock,
    maxWaitMs: options.maxWaitMs ?? 90_000,
    ...(options.maxDurationMs === undefined ? {} : { maxDurationMs: options.maxDurationMs }),
    random: options.random,
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  });
  const client = createClient({
    route: (spec) => target.route(spec),
    ...(target.fetch === undefined ? {} : { fetch: target.fetch }),
    ...(target.maxWireRequestsPerSend === undefined
      ? {}
      : { maxWireRequestsPerSend: target.maxWireRequestsPerSend }),
    apiKey: target.apiKey,
    ...(target.secondApiKey === undefined ? {} : { secondApiKey: target.secondApiKey }),
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.redact === undefined ? {} : { redact: options.redact }),
    budget,
    pacer,
    clock,
    onExchange: options.onExchange ?? (() => {}),
  });
  return { client, budget, pacer };
}
