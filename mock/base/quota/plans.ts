/**
 * Plans and API keys. The interface names the plans and their limits but not which key has
 * which plan: the fake reads that from a keys file (fixtures/keys.json by default).
 */

import { ConfigError } from '../config-error.ts';
import { isJsonObject } from '../contract/lossless-json.ts';
import { keyFormatProblem } from './key-format.ts';

/** Requests allowed per fixed minute window and per fixed UTC day window. */
export interface Limits {
  readonly perMinute: number;
  readonly perDay: number;
}

/** A known API key. `id` is a public label used in logs and the control surface; `key` is secret. */
export interface KeyEntry {
  readonly id: string;
  readonly key: string;
  plan: string;
  /** Per-key limits that override the plan's, set through the control surface. */
  limits?: Limits | undefined;
}

/** The shape of a keys file: plans by name, and the keys that use them. */
export interface KeysFile {
  readonly plans: Readonly<Record<string, Limits>>;
  readonly keys: readonly { readonly id: string; readonly key: string; readonly plan: string }[];
}

/** A key's public id: it appears in logs and in control URLs, so it is kept plain. */
export const keyIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/** The limits that apply to a key: its own override, else its plan's. The one place that decides. */
export function limitsFor(plans: Readonly<Record<string, Limits>>, key: KeyEntry): Limits {
  const limits = key.limits ?? plans[key.plan];
  // Unreachable through the fake's own checks (keys and plans are validated together).
  if (limits === undefined) throw new Error(`key "${key.id}" has unknown plan "${key.plan}"`);
  return limits;
}

/**
 * The keys' secrets as they stand: one array while `keys` holds the same entries (a reset or an
 * added key brings new ones, and a new array). The steps that hide secrets ask on every request;
 * a caller may also tell from the array's identity that the keys changed.
 */
export type KeySecrets = () => readonly string[];

/**
 * The KeySecrets of a fake's keys, and of `others` that are not keys (the control token); one
 * per fake, shared by every step that hides secrets.
 */
export function keySecrets(keys: readonly KeyEntry[], others: readonly string[] = []): KeySecrets {
  let seen: readonly KeyEntry[] | undefined;
  let secrets: readonly string[] = [];
  // Asked on every request: compared entry by entry in a loop (no closure per call).
  const unchanged = (known: readonly KeyEntry[]) => {
    if (keys.length !== known.length) return false;
    for (let index = 0; index < keys.length; index++)
      if (keys[index] !== known[index]) return false;
    return true;
  };
  return () => {
    if (seen === undefined || !unchanged(seen)) {
      seen = [...keys];
      secrets = [...keys.map((key) => key.key), ...others];
    }
    return secrets;
  };
}

/** Throws a ConfigError naming the bad field unless `limits` are two positive safe integers. */
export function assertLimits(limits: unknown, where: string): asserts limits is Limits {
  if (!isJsonObject(limits))
    throw new ConfigError(where, 'must be an object {"perMinute": n, "perDay": n}');
  const value = limits as Partial<Limits>;
  for (const field of ['perMinute', 'perDay'] as const) {
    const n = value[field];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
      throw new ConfigError(
        `${where}.${field}`,
        `must be a positive integer up to ${Number.MAX_SAFE_INTEGER}, got ${String(n)}`,
      );
    }
  }
  const extra = Object.keys(value).filter((field) => field !== 'perMinute' && field !== 'perDay');
  if (extra.length > 0)
    throw new ConfigError(
      where,
      `has unknown field(s) ${extra.join(', ')}; only perMinute, perDay`,
    );
}

/** Validates a parsed keys file, throwing a ConfigError that says which entry is wrong and how. */
export function parseKeysFile(data: unknown, source = 'keys file'): KeysFile {
  const file = data as Partial<KeysFile> | null;
  if (
    file === null ||
    typeof file !== 'object' ||
    typeof file.plans !== 'object' ||
    file.plans === null ||
    !Array.isArray(file.keys)
  ) {
    throw new ConfigError(source, 'must be an object with "plans" and "keys"');
  }
  for (const [name, limits] of Object.entries(file.plans))
    assertLimits(limits, `${source}: plans.${name}`);
  assertKeyEntries(file.keys, file.plans as Record<string, Limits>, `${source}: keys`);
  return file as KeysFile;
}

/**
 * Throws a ConfigError naming the bad field (`<where>[i].id`...) unless every entry has a plain
 * id used once, a key of the key format used once, and one of `plans`. A keys file and a saved
 * session read their keys through it.
 */
export function assertKeyEntries(
  entries: readonly unknown[],
  plans: Readonly<Record<string, Limits>>,
  keysWhere: string,
): void {
  const ids = new Set<string>();
  const secrets = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const where = `${keysWhere}[${index}]`;
    const { id, key, plan } = (entry ?? {}) as Partial<KeyEntry>;
    if (typeof id !== 'string' || !keyIdPattern.test(id))
      throw new ConfigError(`${where}.id`, 'must be 1 to 64 characters of A-Z a-z 0-9 . _ -');
    const keyProblem = keyFormatProblem(key);
    if (keyProblem !== undefined) throw new ConfigError(`${where}.key`, keyProblem);
    if (typeof plan !== 'string' || !Object.hasOwn(plans, plan)) {
      throw new ConfigError(
        `${where}.plan`,
        `must be one of: ${Object.keys(plans).join(', ')}; got "${String(plan)}"`,
      );
    }
    if (ids.has(id)) throw new ConfigError(`${where}.id`, `"${id}" is used twice`);
    // Two ids with one secret would charge one id's requests to the other.
    if (secrets.has(key as string))
      throw new ConfigError(`${where}.key`, 'is the same secret as an earlier key');
    ids.add(id);
    secrets.add(key as string);
  }
}
