/**
 * Pact's path expressions (the keys of a pact's body matching rules and generators: `$.id`,
 * `$[*].name`, `$['first name']`), written and read as the official Pact tools do: the
 * pact_models crate (pact-foundation/pact-reference, rust/pact_models/src/path_exp.rs), which
 * @pact-foundation/pact's Verifier loads every pact with. A field is written `.name` when it is a
 * plain identifier (its `IDENT` regex) and `['name']` otherwise; its parser (`parse_path_exp`)
 * reads a quoted name up to the next `'`, with no escape, and refuses an empty one, so a key that
 * holds `'` or is empty has no path a verifier can load: `fieldPath` answers undefined for it.
 */

/** One step of a path: the root, a field, an index, `*` (any field) or `[*]` (any index). */
export type PactPathToken =
  | { readonly kind: 'root' }
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'star' }
  | { readonly kind: 'star-index' };

/** A path expression the Pact tools refuse; its message is pact_models' own (the path JSON-quoted). */
export class PactPathError extends Error {
  override readonly name = 'PactPathError';
}

/** pact_models writes `.name` only for these (`IDENT`), brackets for every other name. */
const plainIdentifier = /^[_A-Za-z][_A-Za-z0-9]*$/;

/**
 * The path of field `key` under `parent` (`$` and `first name` give `$['first name']`), or
 * undefined when no path can name it (an empty key, or one holding `'`).
 * @example fieldPath('$', 'name') // '$.name'
 */
export function fieldPath(parent: string, key: string): string | undefined {
  if (plainIdentifier.test(key)) return `${parent}.${key}`;
  if (key === '' || key.includes("'")) return undefined;
  return `${parent}['${key}']`;
}

// Rust's char::is_alphabetic and char::is_numeric: the Unicode properties, not ASCII.
const alphabetic = /^\p{Alphabetic}$/u;
const numeric = /^\p{N}$/u;
const isIdentifierChar = (char: string) =>
  alphabetic.test(char) || numeric.test(char) || '_-:#@'.includes(char);
const isNumeric = (char: string) => numeric.test(char);

/**
 * The tokens of a path expression, or a PactPathError with the message pact_models gives
 * (`" " is not allowed in an identifier in path expression "$.first name" at index 7`), the
 * path JSON-quoted so that a control character in it cannot reach a terminal. Indexes count
 * Unicode characters, as Rust's `chars()` does.
 */
export function parsePactPath(path: string): PactPathToken[] {
  // pact_models' grammar, a function per rule, reading `chars` from `at`.
  const chars = [...path];
  const quoted = JSON.stringify(path);
  const tokens: PactPathToken[] = [];
  let at = 0;

  function fail(message: string): never {
    throw new PactPathError(message);
  }

  /** `identifier -> a-zA-Z0-9+`: from `start`, up to `.`, `'` or `[`. */
  function identifier(start: number): void {
    while (at < chars.length && isIdentifierChar(chars[at] as string)) at += 1;
    const char = chars[at];
    if (char !== undefined && char !== '.' && char !== "'" && char !== '[')
      fail(`"${char}" is not allowed in an identifier in path expression ${quoted} at index ${at}`);
    tokens.push({ kind: 'field', name: chars.slice(start, at).join('') });
  }

  /** After `.`: `*` or an identifier. */
  function pathIdentifier(dot: number): void {
    const char = chars[at];
    if (char === undefined)
      fail(`Expected a path after "." in path expression ${quoted} at index ${dot}`);
    at += 1;
    if (char === '*') tokens.push({ kind: 'star' });
    else if (isIdentifierChar(char)) identifier(at - 1);
    else
      fail(
        `Expected either a "*" or path identifier in path expression ${quoted} at index ${at - 1}`,
      );
  }

  /** After `['`: every character up to the next `'` (no escapes), at least one. */
  function stringPath(): void {
    const close = chars.indexOf("'", at);
    if (close < 0)
      fail(`Unterminated string in path expression ${quoted} at index ${chars.length - 1}`);
    if (close === at)
      fail(`Empty strings are not allowed in path expression ${quoted} at index ${close}`);
    tokens.push({ kind: 'field', name: chars.slice(at, close).join('') });
    at = close + 1;
  }

  /** After `[`: digits; the next character, if any, must be `]`. */
  function indexPath(): void {
    const start = at;
    at += 1;
    while (at < chars.length && isNumeric(chars[at] as string)) at += 1;
    const id = chars.slice(start, at).join('');
    const next = chars[at];
    if (next !== undefined && next !== ']')
      fail(
        `Indexes can only consist of numbers or a "*", found "${next}" instead in path expression ${quoted} at index ${at}`,
      );
    // pact_models parses the digits as a usize and panics on anything else (a digit of another
    // script, an index past 2^64): the verifier then fails without a message. Refused here.
    if (!/^\d{1,15}$/.test(id))
      fail(`Index "${id}" is not a number the Pact tools can read in path expression ${quoted}`);
    tokens.push({ kind: 'index', index: Number(id) });
  }

  /** `bracket_path -> (string_path | index | *) ]` */
  function bracketPath(open: number): void {
    const char = chars[at];
    if (char === undefined)
      fail(
        `Expected a "'" (single qoute) or a digit in path expression ${quoted} after index ${open}`,
      );
    if (char === "'") {
      at += 1;
      stringPath();
    } else if (isNumeric(char)) indexPath();
    else if (char === '*') {
      at += 1;
      tokens.push({ kind: 'star-index' });
    } else if (char === ']')
      fail(`Empty bracket expressions are not allowed in path expression ${quoted} at index ${at}`);
    else
      fail(
        `Indexes can only consist of numbers or a "*", found "${char}" instead in path expression ${quoted} at index ${at}`,
      );
    const close = chars[at];
    if (close === undefined)
      fail(`Unterminated brackets in path expression ${quoted} at index ${chars.length - 1}`);
    if (close !== ']')
      fail(
        `Unterminated brackets, found "${close}" instead of "]" in path expression ${quoted} at index ${at}`,
      );
    at += 1;
  }

  /** `path_exp -> (dot-path | bracket-path)*` */
  function pathExp(): void {
    while (at < chars.length) {
      const char = chars[at] as string;
      at += 1;
      if (char === '.') pathIdentifier(at - 1);
      else if (char === '[') bracketPath(at - 1);
      else
        fail(
          `Expected a "." or "[" instead of "${char}" in path expression ${quoted} at index ${at - 1}`,
        );
    }
  }

  // `path -> $ path_exp`, or a first identifier standing for the root.
  const first = chars[0];
  if (first === undefined) return tokens;
  at = 1;
  if (first === '$') tokens.push({ kind: 'root' });
  else if (alphabetic.test(first) || numeric.test(first)) {
    tokens.push({ kind: 'root' });
    identifier(0);
  } else fail(`Path expression ${quoted} does not start with a root marker "$"`);
  pathExp();
  return tokens;
}
