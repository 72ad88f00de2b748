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
  return new PactPathParser(path).parse();
}

/** One parse: pact_models' grammar, a method per rule, reading `chars` from `at`. */
class PactPathParser {
  private readonly chars: string[];
  private readonly quoted: string;
  private readonly tokens: PactPathToken[] = [];
  private at = 0;

  constructor(path: string) {
    this.chars = [...path];
    this.quoted = JSON.stringify(path);
  }

  /** `path -> $ path_exp`, or a first identifier standing for the root. */
  parse(): PactPathToken[] {
    const first = this.chars[0];
    if (first === undefined) return this.tokens;
    this.at = 1;
    if (first === '$') this.tokens.push({ kind: 'root' });
    else if (alphabetic.test(first) || numeric.test(first)) {
      this.tokens.push({ kind: 'root' });
      this.identifier(first);
    } else this.fail(`Path expression ${this.quoted} does not start with a root marker "$"`);
    this.pathExp();
    return this.tokens;
  }

  private fail(message: string): never {
    throw new PactPathError(message);
  }

  /** `identifier -> a-zA-Z0-9+`: from `first`, up to `.`, `'` or `[`. */
  private identifier(first: string): void {
    const { chars, quoted } = this;
    let id = first;
    while (this.at < chars.length) {
      const char = chars[this.at] as string;
      if (isIdentifierChar(char)) {
        id += char;
        this.at += 1;
      } else if (char === '.' || char === "'" || char === '[') break;
      else
        this.fail(
          `"${char}" is not allowed in an identifier in path expression ${quoted} at index ${this.at}`,
        );
    }
    this.tokens.push({ kind: 'field', name: id });
  }

  /** After `.`: `*` or an identifier. */
  private pathIdentifier(dot: number): void {
    const char = this.chars[this.at];
    if (char === undefined)
      this.fail(`Expected a path after "." in path expression ${this.quoted} at index ${dot}`);
    this.at += 1;
    if (char === '*') this.tokens.push({ kind: 'star' });
    else if (isIdentifierChar(char)) this.identifier(char);
    else
      this.fail(
        `Expected either a "*" or path identifier in path expression ${this.quoted} at index ${this.at - 1}`,
      );
  }

  /** After `['`: every character up to the next `'` (no escapes), at least one. */
  private stringPath(quote: number): void {
    const { chars, quoted } = this;
    let id = '';
    if (this.at >= chars.length)
      this.fail(`Unterminated string in path expression ${quoted} at index ${quote}`);
    let char = chars[this.at] as string;
    let index = this.at;
    this.at += 1;
    while (char !== "'" && this.at < chars.length) {
      id += char;
      char = chars[this.at] as string;
      index = this.at;
      this.at += 1;
    }
    if (char !== "'")
      this.fail(`Unterminated string in path expression ${quoted} at index ${index}`);
    if (id === '')
      this.fail(`Empty strings are not allowed in path expression ${quoted} at index ${index}`);
    this.tokens.push({ kind: 'field', name: id });
  }

  /** After `[`: digits; the next character, if any, must be `]`. */
  private indexPath(): void {
    const { chars, quoted } = this;
    let id = chars[this.at] as string;
    this.at += 1;
    while (this.at < chars.length && isNumeric(chars[this.at] as string)) {
      id += chars[this.at];
      this.at += 1;
    }
    const next = chars[this.at];
    if (next !== undefined && next !== ']')
      this.fail(
        `Indexes can only consist of numbers or a "*", found "${next}" instead in path expression ${quoted} at index ${this.at}`,
      );
    // pact_models parses the digits as a usize and panics on anything else (a digit of another
    // script, an index past 2^64): the verifier then fails without a message. Refused here.
    if (!/^\d{1,15}$/.test(id))
      this.fail(
        `Index "${id}" is not a number the Pact tools can read in path expression ${quoted}`,
      );
    this.tokens.push({ kind: 'index', index: Number(id) });
  }

  /** `bracket_path -> (string_path | index | *) ]` */
  private bracketPath(open: number): void {
    const { chars, quoted } = this;
    const char = chars[this.at];
    if (char === undefined)
      this.fail(
        `Expected a "'" (single qoute) or a digit in path expression ${quoted} after index ${open}`,
      );
    if (char === "'") {
      this.at += 1;
      this.stringPath(this.at - 1);
    } else if (isNumeric(char)) this.indexPath();
    else if (char === '*') {
      this.at += 1;
      this.tokens.push({ kind: 'star-index' });
    } else if (char === ']')
      this.fail(
        `Empty bracket expressions are not allowed in path expression ${quoted} at index ${this.at}`,
      );
    else
      this.fail(
        `Indexes can only consist of numbers or a "*", found "${char}" instead in path expression ${quoted} at index ${this.at}`,
      );
    const close = chars[this.at];
    if (close === undefined)
      this.fail(`Unterminated brackets in path expression ${quoted} at index ${chars.length - 1}`);
    if (close !== ']')
      this.fail(
        `Unterminated brackets, found "${close}" instead of "]" in path expression ${quoted} at index ${this.at}`,
      );
    this.at += 1;
  }

  /** `path_exp -> (dot-path | bracket-path)*` */
  private pathExp(): void {
    while (this.at < this.chars.length) {
      const char = this.chars[this.at] as string;
      this.at += 1;
      if (char === '.') this.pathIdentifier(this.at - 1);
      else if (char === '[') this.bracketPath(this.at - 1);
      else
        this.fail(
          `Expected a "." or "[" instead of "${char}" in path expression ${this.quoted} at index ${this.at - 1}`,
        );
    }
  }
}
