/**
 * A server's choices where the interface is silent, as `petstore-contract calibrate` learned
 * them from it: a profile. `createFake({ profile })` and `npm start -- --profile <file>` make the
 * fake answer the same way, so frontend code tested against the fake meets no surprise on the
 * server. The schema is documented in docs/harness/calibrate.md.
 */

import { ConfigError } from '../../base/config-error.ts';
import { isJsonObject } from '../../base/contract/lossless-json.ts';
import { petStatuses } from '../../base/contract/schemas.ts';
import type { PetStatus } from '../../base/contract/types.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';

/** The profile format this version reads and writes. */
const profileFormat = 'petstore-profile/1';

/**
 * The values of each choice that has a fixed set, in one place: a profile file and the fake's
 * own options are checked against the same lists.
 */
export const choiceValues = {
  unknownFields: ['ignore', 'refuse'],
  malformedIdStatus: [400, 404],
  badQuery: ['refuse', 'clamp', 'ignore'],
  retryAfterFormat: ['seconds', 'http-date'],
} as const;

/** How a server answers a query value it does not accept (a limit of 0 or 101, a bad status). */
export type BadQueryChoice = (typeof choiceValues.badQuery)[number];

/** The choices a profile can carry; each is absent when it was not learned. */
export interface ProfileChoices {
  /** Status of a pet created without one. */
  readonly defaultStatus?: PetStatus;
  /** Longest accepted `name`, in characters; `null` when none of the probes found a limit. */
  readonly maxNameLength?: number | null;
  /** Fields NewPet does not define: ignored (not stored) or refused with 400. */
  readonly unknownFields?: 'ignore' | 'refuse';
  /** Status for a `petId` that is not an int64 (`abc`): 400, or 404 like an unknown id. */
  readonly malformedIdStatus?: 400 | 404;
  /** listPets with a bad `limit`: 400, clamped into 1..100, or ignored (the default 20). */
  readonly badQuery?: BadQueryChoice;
  /** Format of `Retry-After` on a 429. */
  readonly retryAfterFormat?: 'seconds' | 'http-date';
  /** The `code` the server sends where the fake would send the key. */
  readonly errorCodes?: Readonly<Partial<Record<ErrorCode, string>>>;
}

/** A profile file. */
export interface FakeProfile {
  readonly format: 'petstore-profile/1';
  /** The base URL it was learned from (never a key). */
  readonly learnedFrom?: string;
  /** When, as an ISO date-time. */
  readonly learnedAt?: string;
  readonly choices: ProfileChoices;
  /** Choices that could not be learned, each with the reason (never guessed). */
  readonly notLearned?: Readonly<Record<string, string>>;
}

function fail(path: string, problem: string): never {
  throw new ConfigError(`profile.${path}`, problem);
}

function checkChoices(value: unknown): ProfileChoices {
  if (!isJsonObject(value)) fail('choices', 'must be an object');
  const choices = value;
  const known = [
    'defaultStatus',
    'maxNameLength',
    'unknownFields',
    'malformedIdStatus',
    'badQuery',
    'retryAfterFormat',
    'errorCodes',
  ];
  for (const name of Object.keys(choices))
    if (!known.includes(name))
      fail(`choices.${name}`, `is not a choice; known: ${known.join(', ')}`);
  const oneOf = (name: string, allowed: readonly unknown[]) => {
    const given = choices[name];
    if (given !== undefined && !allowed.includes(given))
      fail(
        `choices.${name}`,
        `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}; got ${JSON.stringify(given)}`,
      );
  };
  oneOf('defaultStatus', petStatuses);
  for (const [name, allowed] of Object.entries(choiceValues)) oneOf(name, allowed);
  const length = choices.maxNameLength;
  if (
    length !== undefined &&
    length !== null &&
    !(Number.isSafeInteger(length) && (length as number) >= 1)
  )
    fail(
      'choices.maxNameLength',
      `must be a positive integer or null; got ${JSON.stringify(length)}`,
    );
  const codes = choices.errorCodes;
  if (codes !== undefined) {
    if (!isJsonObject(codes)) fail('choices.errorCodes', 'must be an object of code -> code');
    for (const [name, code] of Object.entries(codes))
      if (typeof code !== 'string' || code === '' || code.length > 100)
        fail(
          `choices.errorCodes.${name}`,
          `must be a non-empty string; got ${JSON.stringify(code)}`,
        );
  }
  return choices as ProfileChoices;
}

/**
 * Checks a parsed profile file; throws ConfigError naming the field and what it must be.
 * @example parseProfile(JSON.parse(readFileSync('staging.profile.json', 'utf8')))
 */
export function parseProfile(value: unknown): FakeProfile {
  if (!isJsonObject(value))
    fail('', 'must be a JSON object (a file written by petstore-contract calibrate)');
  const profile = value;
  if (profile.format !== profileFormat)
    fail('format', `must be "${profileFormat}"; got ${JSON.stringify(profile.format)}`);
  return { ...(profile as unknown as FakeProfile), choices: checkChoices(profile.choices) };
}

/** The fake's options that make it answer as the profile says (options given beside it win). */
export function profileOptions(profile: FakeProfile): {
  defaultStatus?: PetStatus;
  maxNameLength?: number;
  unknownFields?: 'ignore' | 'refuse';
  malformedIdStatus?: 400 | 404;
  badQuery?: BadQueryChoice;
  retryAfterFormat?: 'seconds' | 'http-date';
  errorCodes?: Readonly<Partial<Record<ErrorCode, string>>>;
} {
  const { maxNameLength, ...rest } = profile.choices;
  return {
    ...rest,
    ...(maxNameLength === undefined
      ? {}
      : { maxNameLength: maxNameLength ?? Number.MAX_SAFE_INTEGER }),
  };
}
