/**
 * The client of one run against a target, built once by whoever starts the run (the CLI, the
 * calibrate command, a test) and handed whole to runSuite or calibrate: a budget (the
 * preflight's until the plan sets it), a pacer on the target's clock, and the harness's client
 * wired to the target's route and fetch. A client-side flag is a field of ClientSettings, which
 * takes the client's and the pacer's choices as they declare them, so it is not copied here.
 */
import { createBudget } from '../http/budget.ts';
import { type ClientChoices, type ContractClient, createClient } from '../http/client.ts';
import { realClock } from '../http/clock.ts';
import type { Exchange } from '../http/exchange.ts';
import { createPacer, type Pacer, type PacerChoices } from '../http/pacer.ts';
import type { Target } from '../http/target.ts';
import { seededRandom } from './seeds.ts';

/** What a run's client is built from: the client-side flags and where exchanges go. */
export type ClientSettings = Partial<ClientChoices & PacerChoices> & {
  /**
   * The run's seed (`--seed`): the pacer's jitter draws from it and runSuite reads it here, so
   * one number replays a run, its waits included. Default 1.
   */
  readonly seed?: number;
  /** `--budget`; without it, room for the preflight and its retries until the plan resizes it. */
  readonly budget?: number | undefined;
  /** Called with each exchange, retries included (tests count requests; `--log` writes them). */
  readonly onExchange?: (exchange: Exchange) => void;
};

/** The defaults of the settings a client cannot do without. */
const settingsDefaults = { seed: 1, timeoutMs: 10_000, maxWaitMs: 90_000 } as const;

/** A run's client, its pacer, and what the run reads of how it was built. */
export interface RunClient {
  readonly target: Target;
  readonly seed: number;
  /**
   * The seeded stream the pacer's jitter draws from; a run draws its pets' name prefix from it
   * before the first request, so a replayed seed waits the same.
   */
  readonly random: () => number;
  /** `--budget`, when given: the run keeps it instead of deciding one. */
  readonly fixedBudget: number | undefined;
  readonly client: ContractClient;
  readonly pacer: Pacer;
  /** Adds a listener of every exchange from now on, told before the settings' `onExchange`. */
  watch(listener: (exchange: Exchange) => void): void;
}

/**
 * Creates the client of one run against `target`; build one per run (its budget and pacer
 * count that run's requests and waits).
 * @example createRunClient(target, { seed: 7, budget: 300, timeoutMs: 2000 })
 */
export function createRunClient(target: Target, settings: ClientSettings = {}): RunClient {
  const choices = { ...settingsDefaults, ...settings };
  const clock = target.clock ?? realClock;
  const random = seededRandom(choices.seed);
  const budget =
    choices.budget === undefined
      ? createBudget(4, 'the preflight budget')
      : createBudget(choices.budget, `--budget ${choices.budget}`);
  const pacer = createPacer({ ...choices, clock, random });
  const listeners: ((exchange: Exchange) => void)[] = [];
  const client = createClient({
    ...choices,
    route: (spec) => target.route(spec),
    fetch: target.fetch,
    maxWireRequestsPerSend: target.maxWireRequestsPerSend,
    apiKey: target.apiKey,
    secondApiKey: target.secondApiKey,
    budget,
    pacer,
    clock,
    onExchange(exchange) {
      for (const listener of listeners) listener(exchange);
      settings.onExchange?.(exchange);
    },
  });
  return {
    target,
    seed: choices.seed,
    random,
    fixedBudget: choices.budget,
    client,
    pacer,
    watch(listener) {
      listeners.push(listener);
    },
  };
}
