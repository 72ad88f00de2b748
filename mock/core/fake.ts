/**
 * `createFake`: one in-memory Pet Store, its behaviour core and control surface, and the doors
 * that need no environment: `fake.fetch` and the msw handlers. Environment-free: the doors of
 * doors/ decide how requests reach it. The package gives it through index.ts, typed as a `Fake`.
 */
import type { RequestHandler } from 'msw';
import defaultKeysFile from '../../fixtures/keys.json' with { type: 'json' };
import defaultPets from '../../fixtures/pets.json' with { type: 'json' };
import { type ControllableClock, createClock } from '../base/clock/clock.ts';
import { ConfigError } from '../base/config-error.ts';
import type { Pet } from '../base/contract/types.ts';
import { type KeyEntry, type KeysFile, type Limits, parseKeysFile } from '../base/quota/plans.ts';
import { inMemoryLedger } from '../base/quota/quota.ts';
import {
  anonymousRateLimit,
  type KeyUsage,
  rateLimitHeaderRecord,
} from '../base/quota/rate-limit.ts';
import { assertSupportedRuntime } from '../base/runtime/supported-runtime.ts';
import {
  type FakeOptions,
  type ResolvedConfig,
  resolveConfig,
  withProfile,
} from '../pipeline/config/config.ts';
import type { FakeState, OwnFakeState } from '../pipeline/fake-state.ts';
import { type StorePersistence, snapshotProblem } from '../pipeline/persistence.ts';
import type { PolicyState } from '../pipeline/pipeline.ts';
import { createSavedParts, loadSession, saveSession } from '../pipeline/session.ts';
import type { SharedStateOver } from '../pipeline/shared-state.ts';
import { type BaseControl, createControl, type ServedControl } from '../steps/control/control.ts';
import { createPetStore } from '../store/pet-store.ts';
import { createApiPipeline, type PolicyControls, type PolicyOptions } from './api-pipeline.ts';
import { type Behaviour, createBehaviour } from './assembly.ts';
import { createFakeFetch } from './fake-fetch.ts';
import { createMswHandlers } from './msw-handlers.ts';

/**
 * Options of a fake: its settings (FakeOptions), the options each policy declares for itself
 * (PolicyOptions, e.g. `ban`), its data and its clock.
 */
export interface CreateFakeOptions extends FakeOptions, PolicyOptions {
  /** Pets to start with (and to reset to). Default: fixtures/pets.json. */
  readonly seed?: readonly Pet[] | 'empty';
  /** Plans and keys. Default: fixtures/keys.json. */
  readonly keys?: KeysFile;
  /** The clock; default real time, controllable. */
  readonly clock?: ControllableClock;
  /**
   * Where to keep the pets across restarts (saved state wins over `seed`), and with its `session`
   * part the rest of the fake's state too (saved state wins over `keys`, `clock`, `chaos`). A
   * saved session that cannot be read throws a SessionStateError. Default: memory only.
   */
  readonly persistence?: StorePersistence;
}

/** One running fake, as an app or test author meets it. */
export interface Fake {
  /** The msw handlers (a thin adapter over the core): hand them to `setupServer` or `setupWorker`. */
  readonly handlers: RequestHandler[];
  /**
   * A `fetch` answered by the fake in this process, without interception: pass it to clients
   * that take a fetch (openapi-fetch's and ky's `fetch` option).
   * @example const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1', fetch: fake.fetch });
   */
  readonly fetch: typeof fetch;
  /** The QA control surface, in-process. */
  readonly control: FakeControl;
  readonly config: ResolvedConfig;
  /** Public id, plan and secret of every key at start, for printing demo keys. */
  readonly initialKeys: readonly KeyEntry[];
}

/**
 * A fake with the core its doors call. Plumbing: the package's entries (index.ts) give it typed
 * as a `Fake`, so apps and tests meet only the fake's own surface.
 */
export interface FakeWithCore extends Fake {
  /** The behaviour core every door calls: one request in, one answer out. */
  readonly behaviour: Behaviour;
  /** The X-RateLimit-* headers for answers a door writes itself, outside the handlers. */
  anonymousRateLimitHeaders(): Record<string, string>;
}

/** The QA control surface, in-process: its own functions and what each policy adds. */
export type FakeControl = BaseControl & PolicyControls;

/** A force rule as a tab sends it to the tab that holds the fake (the browser door's wire shape). */
export type { RemoteForce } from '../steps/qa/injected-failures/injected-failure-control.ts';

/** The default seed pets (fixtures/pets.json). */
export const defaultSeed: readonly Pet[] = defaultPets as Pet[];

/**
 * The parts of a fake every kind of fake is made of, from its options: the options with their
 * profile's choices under them, the settings resolved, the plans, the seed and the keys.
 */
export function fakeParts(given: CreateFakeOptions) {
  // The fake itself runs on any vitest; on a Node older than msw 3's its requests would fail.
  assertSupportedRuntime('createFake', { vitest: false });
  const options = withProfile(given);
  const config = resolveConfig(options);
  const keysFile = parseKeysFile(
    options.keys ?? defaultKeysFile,
    options.keys ? 'keys option' : 'fixtures/keys.json',
  );
  const plans: Record<string, Limits> = { ...keysFile.plans };
  if (config.enterpriseLimits !== undefined) plans.enterprise = config.enterpriseLimits;
  const seed = options.seed === 'empty' ? [] : (options.seed ?? defaultSeed);
  const seedProblem = snapshotProblem({ pets: seed, nextId: 1 });
  if (seedProblem !== undefined)
    throw new ConfigError('seed', seedProblem.replace(/^snapshot\.?/, ''));
  const initialKeys = keysFile.keys.map((key) => ({ ...key }));
  return {
    options,
    config,
    plans,
    seed,
    initialKeys,
    clock: options.clock ?? createClock(),
    keys: initialKeys.map((key) => ({ ...key })),
  };
}

/**
 * Creates a fake Pet Store with its core, for the doors and this repository's tests; the package
 * gives it as index.ts's `createFake`.
 */
export async function createFake(given: CreateFakeOptions = {}): Promise<FakeWithCore> {
  const { options, config, plans, seed, initialKeys, clock, keys } = fakeParts(given);
  const usage = new Map<string, KeyUsage>();
  const state: OwnFakeState = {
    config,
    clock,
    store: await createPetStore(seed, options.persistence),
    keys,
    plans,
    quota: inMemoryLedger(usage),
    usage,
  };
  const api = createApiPipeline(state, options);
  const session = options.persistence?.session;
  if (session !== undefined) {
    // Saved state wins over the options' starting state, as the store's saved pets win over the seed.
    const saved = session.load();
    if (saved !== undefined) loadSession(state, api.states, saved);
    const savedParts = createSavedParts();
    session.attach(() => saveSession(state, api.states, savedParts));
  }
  const control: FakeControl = createControl(state, seed, initialKeys, api);
  const behaviour = createBehaviour(state, api, control);
  return {
    handlers: createMswHandlers(behaviour),
    fetch: createFakeFetch(behaviour, config.origins),
    behaviour,
    control,
    config,
    initialKeys,
    anonymousRateLimitHeaders: () => rateLimitHeaderRecord(anonymousRateLimit(plans, clock.now())),
  };
}

/**
 * A fake that shares its state with other processes (a replica, mock/replicas/): its core, for
 * the HTTP door, and its control surface, whose functions answer once the shared state has.
 */
export interface SharedFake {
  readonly behaviour: Behaviour;
  readonly control: ServedControl & PolicyControls;
  readonly config: ResolvedConfig;
  /** Public id, plan and secret of every key at start, for printing demo keys. */
  readonly initialKeys: readonly KeyEntry[];
  /** Brings the recorders up to what every process answered (before the exit files). */
  catchUp(): Promise<void>;
}

/**
 * Creates a fake over state it shares with other processes: `shared` makes it from the fake's
 * own clock and keys (its local copy). Pets, quota and the copy live where `shared` keeps them;
 * persistence is that state's, so `persistence` is refused.
 */
export async function createSharedFake(
  given: CreateFakeOptions,
  shared: SharedStateOver,
): Promise<SharedFake> {
  if (given.persistence !== undefined)
    throw new ConfigError('persistence', 'cannot be given to a fake whose state is shared');
  const { options, config, plans, seed, initialKeys, clock, keys } = fakeParts(given);
  const policies: PolicyState[] = [];
  const sharedState = shared({ clock, keys, policies });
  const state: FakeState = {
    config,
    clock,
    store: sharedState.store,
    keys,
    plans,
    quota: sharedState.quota,
    usage: new Map(),
  };
  const api = createApiPipeline(state, options, sharedState);
  policies.push(...api.sharedStates);
  const control = createControl(state, seed, initialKeys, api);
  return {
    behaviour: createBehaviour(state, api, control, sharedState),
    control,
    config,
    initialKeys,
    catchUp: () => api.catchUp(),
  };
}
