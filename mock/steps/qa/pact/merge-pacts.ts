/**
 * One Pact file from several parts of one consumer's tests: the test files of a vitest suite
 * (each file has its own modules, so its own fake and its own recording), the shards of a CI
 * job. Interactions are deduplicated by their `key` as the recorder deduplicates them: the first
 * of a key is kept, in the order the parts give them.
 */
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import { assertSupportedRuntime } from '../../../base/runtime/supported-runtime.ts';
import type { PactInteraction } from './pact-interaction.ts';
import type { PactFile } from './pact-step.ts';

/** The error `mergePacts` throws when its pacts cannot be one file. */
export class PactMergeError extends Error {
  override readonly name = 'PactMergeError';
}

const numberOf = (value: unknown) => (typeof value === 'number' ? value : 0);

/** The Pact specification version a file's metadata states, as JSON (compared, not read). */
const specificationOf = (pact: PactFile) => JSON.stringify(pact.metadata.pactSpecification);

/**
 * The first part's metadata, with what the fake says it left out (`notRecorded`, recording
 * failures) summed over every part.
 */
function mergedMetadata(pacts: readonly PactFile[]): Record<string, unknown> {
  const [head] = pacts as [PactFile, ...PactFile[]];
  const fakes = pacts.map((pact) => pact.metadata.petstoreFake).filter(isJsonObject);
  const [firstFake] = fakes;
  if (firstFake === undefined) return head.metadata;
  const failures = fakes.reduce((sum, each) => sum + numberOf(each.recordingFailures), 0);
  const lastFailure = fakes.flatMap((each) => each.lastFailure ?? []).at(-1);
  return {
    ...head.metadata,
    petstoreFake: {
      ...firstFake,
      notRecorded: fakes.reduce((sum, each) => sum + numberOf(each.notRecorded), 0),
      ...(failures === 0 ? {} : { recordingFailures: failures, lastFailure }),
    },
  };
}

/**
 * Merges the pacts of one consumer and provider (each test file's `fake.control.pact()`) into
 * one file: each interaction once, by its `key`, the first kept. Throws a PactMergeError for no
 * pacts, or pacts whose consumer, provider, Pact specification or base path differ.
 * @example const pact = mergePacts(parts.map((part) => part.pact));
 */
export function mergePacts(pacts: readonly PactFile[]): PactFile {
  assertSupportedRuntime('mergePacts');
  const [head] = pacts;
  if (head === undefined)
    throw new PactMergeError('petstore-fake: mergePacts: no pacts to merge; pass one or more');
  const names = (pact: PactFile) =>
    `consumer ${JSON.stringify(pact.consumer.name)} and provider ${JSON.stringify(pact.provider.name)}`;
  for (const [index, pact] of pacts.entries()) {
    if (names(pact) !== names(head))
      throw new PactMergeError(
        `petstore-fake: mergePacts: pact ${index} is between ${names(pact)}, pact 0 between ${names(head)}; one file holds one pair: give every part the same names (fake.control.pact({ consumer, provider }))`,
      );
    if (specificationOf(pact) !== specificationOf(head))
      throw new PactMergeError(
        `petstore-fake: mergePacts: pact ${index} states Pact specification ${specificationOf(pact)}, pact 0 ${specificationOf(head)}; write every part with the same petstore-fake`,
      );
    if (pact.metadata.baseUrlIncludes !== head.metadata.baseUrlIncludes)
      throw new PactMergeError(
        `petstore-fake: mergePacts: pact ${index}'s paths are relative to ${JSON.stringify(pact.metadata.baseUrlIncludes)}, pact 0's to ${JSON.stringify(head.metadata.baseUrlIncludes)}; give every part's fake the same base path`,
      );
  }
  const interactions = new Map<string, PactInteraction>();
  for (const interaction of pacts.flatMap((pact) => pact.interactions))
    if (!interactions.has(interaction.key)) interactions.set(interaction.key, interaction);
  return {
    consumer: head.consumer,
    provider: head.provider,
    interactions: [...interactions.values()],
    metadata: mergedMetadata(pacts),
  };
}
