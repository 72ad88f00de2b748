/**
 * `petstore-fake/qa`: the helpers that judge what a fake saw, in a test or after a whole suite:
 * the request journal's count with its near misses, the interface coverage and client compliance
 * gates, the merges of every test file's coverage and Pact parts, and the coverage formats. The records they read and write are the root entry's
 * types (index.ts), which `fake.control` gives.
 */

export { expectSupportedRuntime } from './base/runtime/expect-supported-runtime.ts';
export type { NearMiss, RequestCount } from './steps/journal/expect-requests.ts';
export { expectRequests, RequestCountError } from './steps/journal/expect-requests.ts';
export type { ClientComplianceOptions } from './steps/qa/client-report/expect-client-compliance.ts';
export {
  ClientComplianceError,
  expectClientCompliance,
} from './steps/qa/client-report/expect-client-compliance.ts';
export type { CoverageFormat } from './steps/qa/coverage/coverage-formats.ts';
export { formatCoverage } from './steps/qa/coverage/coverage-formats.ts';
export type { InterfaceCoverageOptions } from './steps/qa/coverage/expect-interface-coverage.ts';
export {
  expectInterfaceCoverage,
  InterfaceCoverageError,
} from './steps/qa/coverage/expect-interface-coverage.ts';
export { CoverageMergeError, mergeCoverage } from './steps/qa/coverage/merge-coverage.ts';
export { mergePacts, PactMergeError } from './steps/qa/pact/merge-pacts.ts';
