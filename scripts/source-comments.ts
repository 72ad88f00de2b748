/**
 * The comments of a TypeScript or JavaScript source, read by a small tokenizer: strings,
 * template literals (and the code inside their `${}`) and regular expression literals are
 * skipped, so a `//` or `/*` inside one is not a comment. A `/` starts a regular expression
 * where an operand may start (after an operator, an opening bracket, a comma or a keyword such
 * as `return`), as the language's grammar has it; after a name, a number or a closing bracket it
 * divides.
 */

/** One comment: its text (delimiters included) and the line it starts on, from 1. */
export interface SourceComment {
  readonly line: number;
  readonly text: string;
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const operandKeywords = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

/** The end of the string literal opened by the quote at `start`. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  let at = start + 1;
  while (at < text.length && text[at] !== quote && text[at] !== '\n') {
    at += text[at] === '\\' ? 2 : 1;
  }
  return at + 1;
}

/** The end of the regular expression literal opened by the `/` at `start`, flags included. */
function regexEnd(text: string, start: number): number {
  let at = start + 1;
  let inClass = false;
  while (at < text.length && text[at] !== '\n') {
    const char = text[at];
    if (char === '\\') at += 1;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) break;
    at += 1;
  }
  at += 1;
  while (at < text.length && /[a-z]/i.test(text[at] ?? '')) at += 1;
  return at;
}

/** Every comment of `text`, in order. */
export function sourceComments(text: string): SourceComment[] {
  const comments: SourceComment[] = [];
  // One entry per open template literal: the depth of `{` inside its current `${`.
  const templates: number[] = [];
  let line = 1;
  // Whether a `/` here would start an operand (a regular expression) rather than divide.
  let operandExpected = true;
  let at = 0;
  const advance = (to: number) => {
    for (let i = at; i < to && i < text.length; i++) if (text[i] === '\n') line += 1;
    at = to;
  };
  /** Skips template text from `at` (just past a backtick or a `}`) to its end or next `${`. */
  const templateText = () => {
    let to = at;
    while (to < text.length && text[to] !== '`' && !(text[to] === '$' && text[to + 1] === '{')) {
      to += text[to] === '\\' ? 2 : 1;
    }
    if (text[to] === '`') {
      templates.pop();
      advance(to + 1);
      operandExpected = false;
    } else {
      advance(to + 2);
      operandExpected = true;
    }
  };
  while (at < text.length) {
    const char = text[at] ?? '';
    const next = text[at + 1];
    if (char === '/' && next === '/') {
      const end = text.indexOf('\n', at);
      const to = end === -1 ? text.length : end;
      comments.push({ line, text: text.slice(at, to) });
      advance(to);
    } else if (char === '/' && next === '*') {
      const end = text.indexOf('*/', at + 2);
      const to = end === -1 ? text.length : end + 2;
      comments.push({ line, text: text.slice(at, to) });
      advance(to);
    } else if (char === '"' || char === "'") {
      advance(stringEnd(text, at));
      operandExpected = false;
    } else if (char === '`') {
      templates.push(0);
      advance(at + 1);
      templateText();
    } else if (char === '/') {
      if (operandExpected) {
        advance(regexEnd(text, at));
        operandExpected = false;
      } else {
        advance(at + 1);
        operandExpected = true;
      }
    } else if (char === '{' && templates.length > 0) {
      templates[templates.length - 1] = (templates.at(-1) ?? 0) + 1;
      advance(at + 1);
      operandExpected = true;
    } else if (char === '}' && templates.at(-1) === 0) {
      advance(at + 1);
      templateText();
    } else if (/[\w$]/.test(char)) {
      let to = at + 1;
      while (to < text.length && /[\w$]/.test(text[to] ?? '')) to += 1;
      operandExpected = operandKeywords.has(text.slice(at, to));
      advance(to);
    } else {
      if (char === '}' && templates.length > 0)
        templates[templates.length - 1] = (templates.at(-1) ?? 0) - 1;
      if (!/\s/.test(char)) operandExpected = !(char === ')' || char === ']' || char === '}');
      advance(at + 1);
    }
  }
  return comments;
}
