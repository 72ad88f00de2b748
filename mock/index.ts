/**
 * The package's root entry (`petstore-fake`): what an app or a test author uses, a fake and its
 * control surface with the types they take and give. The QA helpers that judge a fake or a suite
 * (expect*, merge*, formatCoverage) are `petstore-fake/qa` (qa.ts); the doors of an environment
 * are `petstore-fake/node` and `petstore-fake/browser`, which give all of this too.
 */
import type { CreateFakeOptions, Fake } from './core/fake.ts';
import { createFake as createFakeWithCore } from './core/fake.ts';

/**
 * Creates a fake Pet Store: its msw handlers, a `fetch` it answers, its control surface.
 * @example const fake = await createFake({ seed: 'empty', retryAfterFormat: 'http-date' });
 */
export const createFake: (options?: CreateFakeOptions) => Promise<Fake> = createFakeWithCore;

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
export type { KeyEntry, KeysFile, Limits } from './base/quota/plans.ts';
export type { RetryAfterFormat } from './base/quota/retry-after.ts';
export { UnsupportedRuntimeError } from './base/runtime/supported-runtime.ts';
export type { CreateFakeOptions, Fake, FakeControl } from './core/fake.ts';
export { defaultSeed } from './core/fake.ts';
export type { ExchangeRecord, FakeOptions, ResolvedConfig } from './pipeline/config/config.ts';
export type { BadQueryChoice, FakeProfile, ProfileChoices } from './pipeline/config/profile.ts';
export { ControlInputError } from './pipeline/control-input-error.ts';
export type { StorePersistence, StoreSnapshot } from './pipeline/persistence.ts';
export type { KeyInfo, ResetSeed } from './steps/control/control.ts';
export type { JournalAnswer, JournalEntry } from './steps/journal/journal-entry.ts';
export type { JournalFilter } from './steps/journal/journal-filter.ts';
export type {
  ClientReport,
  ClientSummary,
  RecentRequest,
  RetryWait,
  RuleVerdict,
} from './steps/qa/client-report/client-report.ts';
export type {
  CoverageExample,
  CoverageItemRecord,
  CoverageRecord,
  CoverageSender,
} from './steps/qa/coverage/coverage-record.ts';
export type { ForceableStatus, ForcedRule } from './steps/qa/forced-answers/forced-responses.ts';
export type {
  ChaosRule,
  ChaosSettings,
  ChaosStatus,
  LatencyDistribution,
} from './steps/qa/injected-failures/chaos-settings.ts';
export type { PactInteraction } from './steps/qa/pact/pact-interaction.ts';
export type { ProviderState, ProviderStateRequest } from './steps/qa/pact/pact-provider-states.ts';
export type { PactFile, PactNames } from './steps/qa/pact/pact-step.ts';
