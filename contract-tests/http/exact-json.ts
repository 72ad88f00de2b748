/**
 * JSON in and out without losing int64 digits: JS numbers round past 2^53, so integers are read
 * with their source text and written from `bigint` as exact literals.
 */

/** A marker that survives JSON.stringify and is swapped for the raw digits afterwards. */
const marker = (digits: string) => `\u0000int64:${digits}\u0000`;
const markerPattern = /"\\u0000int64:(-?\d+)\\u0000"/g;

/** Serialises a value, writing `bigint` values as exact integer literals. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? marker(item.toString()) : item,
  );
  return text.replace(markerPattern, '$1');
}

/** Parses JSON keeping every integer's source digits: integers come back as `bigint`. */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value === 'number' && context?.source !== undefined) {
      if (/^-?\d+$/.test(context.source)) return BigInt(context.source);
    }
    return value;
  });
}
