/** Compares two profiles choice by choice: what differs, and what only one side learned. */
import type { FakeProfile } from '../../mock/internal/entry.ts';

/** The outcome of a comparison. */
export interface ProfileComparison {
  /** `choice: server X, fake Y` for each choice both learned and answer differently. */
  readonly differences: readonly string[];
  /** Choices both learned the same. */
  readonly same: readonly string[];
  /** Choices one side could not learn, with the reason. */
  readonly notCompared: readonly string[];
}

function flatten(profile: FakeProfile): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const { errorCodes, ...rest } = profile.choices;
  for (const [name, value] of Object.entries(rest)) values.set(name, value);
  for (const [code, value] of Object.entries(errorCodes ?? {}))
    values.set(`errorCodes.${code}`, value);
  return values;
}

/**
 * Compares the server's profile with the fake's.
 * @example compareProfiles(learnedFromStaging, learnedFromFake).differences
 */
export function compareProfiles(server: FakeProfile, fake: FakeProfile): ProfileComparison {
  const left = flatten(server);
  const right = flatten(fake);
  const differences: string[] = [];
  const same: string[] = [];
  const notCompared: string[] = [];
  for (const name of [
    ...new Set([...left.keys(), ...right.keys(), ...Object.keys(server.notLearned ?? {})]),
  ].sort()) {
    if (!left.has(name) || !right.has(name)) {
      const why = !left.has(name)
        ? `server: ${server.notLearned?.[name] ?? 'not learned'}`
        : `fake: ${fake.notLearned?.[name] ?? 'not learned'}`;
      notCompared.push(`${name} (${why})`);
      continue;
    }
    const a = JSON.stringify(left.get(name));
    const b = JSON.stringify(right.get(name));
    if (a === b) same.push(name);
    else differences.push(`${name}: server ${a}, fake ${b}`);
  }
  return { differences, same, notCompared };
}
