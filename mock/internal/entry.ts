/**
 * What the contract harness borrows from the fake beyond the package's entries: its one declared
 * internal entry. contract-tests/ imports mock/ through this file and the package's entries
 * (index.ts, qa.ts, doors/node/node.ts) only, held by the layer rules
 * (`the-harness-reaches-the-fake-through-its-entries`), so a change inside the fake that would
 * break the harness shows here first: the interface as data and exact JSON, the doors the
 * harness runs against, the CLI pieces both tools share, and the fake's own rules it reuses.
 */

export { ConfigError } from '../base/config-error.ts';
export { isJsonObject, parseJson, stringifyJson } from '../base/contract/lossless-json.ts';
export { openapiDocument } from '../base/contract/openapi.generated.ts';
export { compileSchema } from '../base/contract/schema-validator.ts';
export { checkNewPet, describeIssues, onlyFields, petStatuses } from '../base/contract/schemas.ts';
export type { NewPet, Pet } from '../base/contract/types.ts';
export { errorTemplates } from '../base/messages/errors.ts';
export type { Secret } from '../base/messages/redaction.ts';
export { createRedaction } from '../base/messages/redaction.ts';
export type { Behaviour } from '../core/assembly.ts';
export type { CreateFakeOptions, FakeWithCore } from '../core/fake.ts';
export { createFake, defaultSeed } from '../core/fake.ts';
export type { FlagSpecs } from '../doors/cli-shared/command-line.ts';
export {
  flagHelp,
  parseFlags,
  parseInteger,
  UsageError,
} from '../doors/cli-shared/command-line.ts';
export { invokedAs } from '../doors/cli-shared/invoked-as.ts';
export { outputPathProblem, writeOutputFile } from '../doors/cli-shared/output-path.ts';
export { startOnSupportedNode } from '../doors/cli-shared/start-on-supported-node.ts';
export type { HttpDoor } from '../doors/http/http-server.ts';
export { listenHttp } from '../doors/http/http-server.ts';
export { listenProblem } from '../doors/http/listen-problem.ts';
export type { ExchangeRecord } from '../pipeline/config/config.ts';
export { resolveAllowedHosts } from '../pipeline/config/config.ts';
export type { FakeProfile, ProfileChoices } from '../pipeline/config/profile.ts';
export { parseProfile } from '../pipeline/config/profile.ts';
export { hostProblem } from '../steps/policies/host-step.ts';
export { coverageFormatOf, formatCoverage } from '../steps/qa/coverage/coverage-formats.ts';
export { coverageItems } from '../steps/qa/coverage/coverage-items.ts';
export type { CoverageRecord } from '../steps/qa/coverage/coverage-record.ts';
export type {
  CoverageExchange,
  CoverageRecorder,
} from '../steps/qa/coverage/interface-coverage.ts';
export { createCoverageRecorder, isErrorBody } from '../steps/qa/coverage/interface-coverage.ts';
export { seededRandom } from '../steps/qa/injected-failures/seeded-random.ts';
export type { PactPathToken } from '../steps/qa/pact/pact-path.ts';
export { fieldPath, PactPathError, parsePactPath } from '../steps/qa/pact/pact-path.ts';
export type { PactNames } from '../steps/qa/pact/pact-step.ts';
