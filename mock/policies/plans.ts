/**
 * Plans and API keys. The interface names the plans and their limits but not which key has
 * which plan: the fake reads that from a keys file (fixtures/keys.json by default).
 */

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

/** The interface's plan table; Enterprise is "custom" there, so its numbers are the fake's default. */
export const interfacePlans: Readonly<Record<string, Limits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 10_000, perDay: 10_000_000 },
};

/** Throws a `petstore-fake:` error naming the bad field unless `limits` are two positive integers. */
export function assertLimits(limits: unknown, where: string): asserts limits is Limits {
  const value = limits as Partial<Limits> | null;
  for (const field of ['perMinute', 'perDay'] as const) {
    const n = value?.[field];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
      throw new Error(
        `petstore-fake: ${where}.${field} must be a positive integer, got ${String(n)}`,
      );
    }
  }
}

/** Validates a parsed keys file, throwing an error that says which entry is wrong and how. */
export function parseKeysFile(data: unknown, source = 'keys file'): KeysFile {
  const file = data as Partial<KeysFile> | null;
  if (
    file === null ||
    typeof file !== 'object' ||
    typeof file.plans !== 'object' ||
    !Array.isArray(file.keys)
  ) {
    throw new Error(`petstore-fake: ${source} must be an object with "plans" and "keys"`);
  }
  for (const [name, limits] of Object.entries(file.plans ?? {}))
    assertLimits(limits, `plans.${name}`);
  const plans = file.plans as Record<string, Limits>;
  const seen = new Set<string>();
  for (const [index, entry] of file.keys.entries()) {
    const where = `${source}: keys[${index}]`;
    if (typeof entry?.id !== 'string' || entry.id === '')
      throw new Error(`petstore-fake: ${where}.id must be a non-empty string`);
    if (typeof entry.key !== 'string' || !/^[\x21-\x7e]{8,256}$/.test(entry.key)) {
      throw new Error(
        `petstore-fake: ${where}.key must be 8 to 256 printable ASCII characters without spaces`,
      );
    }
    if (!Object.hasOwn(plans, entry.plan)) {
      throw new Error(
        `petstore-fake: ${where}.plan "${entry.plan}" is not one of: ${Object.keys(plans).join(', ')}`,
      );
    }
    if (seen.has(entry.id))
      throw new Error(`petstore-fake: ${where}.id "${entry.id}" is used twice`);
    seen.add(entry.id);
  }
  return file as KeysFile;
}
