/**
 * JSON whose every string and key is well-formed Unicode. A JSON text may carry a lone surrogate
 * (`"\ud800"`), and so may a string cut short (a shape's first 128 characters can end inside a
 * surrogate pair); JavaScript keeps both, but Rust's serde_json refuses the whole file that holds
 * one ("Failed to parse Pact JSON" from @pact-foundation/pact's Verifier). Each lone surrogate
 * becomes U+FFFD, as a UTF-8 decoder makes of a broken byte.
 */

/** `value` with every lone surrogate in its strings and keys replaced by U+FFFD. */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(wellFormedJson);
  // Entries, not assignment: a key may be `__proto__`.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormedJson(item)]),
  );
}
