/**
 * `createFake`: one in-memory Pet Store, its behaviour core and control surface, and the doors
 * that need no environment: `fake.fetch` and the msw handlers. Environment-free: browser.ts,
 * node.ts and server/ decide how requests reach it.
 */
import type { RequestHandler } from 'msw';
import defaultKeysFile from '../fixtures/keys.json' with { type: 'json' };
import defaultPets from '../fixtures/pets.json' with { type: 'json' };
import { createFakeFetch } from './adapters/fake-fetch.ts';
import { createMswHandlers } from './adapters/msw-handlers.ts';
import { type ControllableClock, createClock } from './base/clock/clock.ts';
import { ConfigError } from './base/config-error.ts';
import { assertSupportedRuntime } from './base/contract/supported-runtime.ts';
import type { Pet } from './base/contract/types.ts';
import { type KeyEntry, type KeysFile, type Limits, parseKeysFile } from './base/quota/plans.ts';
import {
  type Behaviour,
  createApiPipeline,
  createBehaviour,
  type PolicyControls,
  type PolicyOptions,
} from './core/behaviour.ts';
import {
  type FakeOptions,
  type ResolvedConfig,
  resolveConfig,
  withProfile,
} from './pipeline/config/config.ts';
import type { FakeState } from './pipeline/fake-state.ts';
import type { StorePersistence } from './pipeline/persistence.ts';
import { loadSession, saveSession } from './pipeline/session.ts';
import { type BaseControl, createControl } from './steps/control/control.ts';
import { createPetStore, snapshotProblem } from './steps/store/pet-store.ts';

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

/** One running fake. */
export interface Fake {
  /** The msw handlers (a thin adapter over the core): hand them to `setupServer` or `setupWorker`. */
  readonly handlers: RequestHandler[];
  /**
   * A `fetch` answered by the fake in this process, without interception: pass it to clients
   * that take a fetch (openapi-fetch's and ky's `fetch` option).
   * @example const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1', fetch: fake.fetch });
   */
  readonly fetch: typeof fetch;
  /** The behaviour core every door calls: one request in, one answer out. */
  readonly behaviour: Behaviour;
  /** The QA control surface, in-process. */
  readonly control: FakeControl;
  readonly config: ResolvedConfig;
  /** Public id, plan and secret of every key at start, for printing demo keys. */
  readonly initialKeys: readonly KeyEntry[];
  /** The X-RateLimit-* headers for answers a door writes itself, outside the handlers. */
  anonymousRateLimitHeaders(): Record<string, string>;
}

export type { Clock, ControllableClock } from './base/clock/clock.ts';
export { createClock } from './base/clock/clock.ts';
export { ConfigError } from './base/config-error.ts';
export type {
  ErrorBody,
  Int64,
  NewPet,
  OperationId,
  Pet,
  PetStatus,
} from './base/contract/types.ts';
export type { ExchangeRecord, FakeOptions, ResolvedConfig } from './pipeline/config/config.ts';
export type { BadQueryChoice, FakeProfile, ProfileChoices } from './pipeline/config/profile.ts';
export { parseProfile } from './pipeline/config/profile.ts';
export type { KeyInfo, ResetSeed } from './steps/control/control.ts';

/** The QA control surface, in-process: its own functions and what each policy adds. */
export type FakeControl = BaseControl & PolicyControls;
export type { CoverageFormat } from './base/contract/coverage-formats.ts';
export { formatCoverage } from './base/contract/coverage-formats.ts';
export type {
  CoverageExample,
  CoverageItemRecord,
  CoverageRecord,
  CoverageSender,
} from './base/contract/interface-coverage.ts';
export { CoverageMergeError, mergeCoverage } from './base/contract/merge-coverage.ts';
export { UnsupportedRuntimeError } from './base/contract/supported-runtime.ts';
export type { Answer } from './base/messages/answer.ts';
export type { BodyBytes, FakeRequest } from './base/messages/fake-request.ts';
export type { KeyEntry, KeysFile, Limits } from './base/quota/plans.ts';
export type { RetryAfterFormat } from './base/quota/retry-after.ts';
export type { Behaviour } from './core/behaviour.ts';
export { ControlInputError } from './pipeline/control-input-error.ts';
export type { StorePersistence, StoreSnapshot } from './pipeline/persistence.ts';
export type {
  ChaosRule,
  ChaosSettings,
  ChaosStatus,
  LatencyDistribution,
} from './steps/qa/chaos-settings.ts';
export type {
  ClientReport,
  ClientSummary,
  RecentRequest,
  RetryWait,
  RuleVerdict,
} from './steps/qa/client-report.ts';
export type { ClientComplianceOptions } from './steps/qa/expect-client-compliance.ts';
export {
  ClientComplianceError,
  expectClientCompliance,
} from './steps/qa/expect-client-compliance.ts';
export type { InterfaceCoverageOptions } from './steps/qa/expect-interface-coverage.ts';
export {
  expectInterfaceCoverage,
  InterfaceCoverageError,
} from './steps/qa/expect-interface-coverage.ts';
export type { ForceableStatus, ForcedRule } from './steps/qa/forced-responses.ts';
export { mergePacts, PactMergeError } from './steps/qa/merge-pacts.ts';
export type { ProviderState, ProviderStateRequest } from './steps/qa/pact-provider-states.ts';
export type { PactFile, PactInteraction, PactNames } from './steps/qa/pact-step.ts';

/** The default seed pets (fixtures/pets.json). */
export const defaultSeed: readonly Pet[] = defaultPets as Pet[];

/**
 * Creates a fake Pet Store.
 * @example const fake = await createFake({ seed: 'empty', retryAfterFormat: 'http-date' });
 */
export async function createFake(given: CreateFakeOptions = {}): Promise<Fake> {
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
  const state: FakeState = {
    config,
    clock: options.clock ?? createClock(),
    store: await createPetStore(seed, options.persistence),
    keys: initialKeys.map((key) => ({ ...key })),
    plans,
    usage: new Map(),
  };
  const api = createApiPipeline(state, options);
  const session = options.persistence?.session;
  if (session !== undefined) {
    // Saved state wins over the options' starting state, as the store's saved pets win over the seed.
    const saved = session.load();
    if (saved !== undefined) loadSession(state, api.states, saved);
    session.attach(() => saveSession(state, api.states));
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
    anonymousRateLimitHeaders: () => behaviour.rateLimitHeaders(null),
  };
}
