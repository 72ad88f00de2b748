/**
 * JSON that keeps int64 exact: integer literals past 2^53 parse to `bigint` instead of a rounded
 * `number`, and `bigint` values serialise back to the same digits. The interface types ids as
 * int64, and a fake that rounds 9007199254740993 to ...992 would quietly answer for another pet.
 */

declare global {
  interface JSON {
    // Shipped in V8 11.4 (Node 21+, Chrome 114+); TypeScript's lib does not declare it yet.
    rawJSON(text: string): object;
  }
}

/**
 * An integer literal past 2^53 - 1 has at least 16 digits, with no point or exponent after them
 * and no digit or point before: text without such a run has none, and parses without the
 * reviver, which costs V8 several times the parse itself. A fraction's digits (`0.30000000000000004`,
 * a duration) are not one.
 */
const LONG_DIGITS = /(?<![\d.])\d{16,}(?![\d.eE])/;

/** Parses JSON text; integer literals outside the safe range become `bigint`. Throws SyntaxError. */
export function parseJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    const source = context?.source ?? '';
    const exact =
      typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(source);
    return exact ? BigInt(source) : value;
  });
}

/**
 * Serialises a value to JSON text, writing `bigint` values as exact integer literals; `indent`
 * pretty-prints, as JSON.stringify's third argument does (files people read).
 */
export function stringifyJson(value: unknown, indent?: number): string {
  // A replacer takes V8 off its fast serialiser (twice the time for a page of pets), and bigints
  // are rare: try without one, and pay for it only when a bigint makes JSON.stringify throw.
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(
      value,
      (_key, item: unknown) => (typeof item === 'bigint' ? JSON.rawJSON(item.toString()) : item),
      indent,
    );
  }
}

/** Whether a parsed JSON value is an object (not null, not an array): its fields can be read. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether a parsed JSON value is a count or a time in ms, as saved state holds them: a safe
 * integer, 0 or more.
 */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
