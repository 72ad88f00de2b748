/**
 * Runs a pact's regex with a time limit. A pact is not trusted, and a regex such as `^(.+)+X$`
 * backtracks for longer than any run has on a long enough answer; JavaScript cannot interrupt a
 * regex from a timer (it runs synchronously), but Node's `vm` module can: a script run with a
 * `timeout` is terminated when it passes it, regex included (node:vm, `script.runInContext`,
 * option `timeout`: "terminate execution after that many milliseconds").
 */
import { createContext, Script } from 'node:vm';

/** A regex that ran past its time limit: no answer, so no verdict on what it was to check. */
export class RegexTimeoutError extends Error {
  override readonly name = 'RegexTimeoutError';
}

const context = createContext({ compiled: new Map<string, RegExp>(), pattern: '', input: '' });
const script = new Script(
  '(() => { let regex = compiled.get(pattern); if (regex === undefined) { regex = new RegExp(pattern); compiled.set(pattern, regex); } return regex.test(input); })()',
);

/**
 * Whether `input` matches `pattern`, given at most `timeoutMs` of CPU time; throws a
 * RegexTimeoutError past it.
 * @example regexMatches('^\\d+$', '42', 100) // true
 */
export function regexMatches(pattern: string, input: string, timeoutMs: number): boolean {
  context.pattern = pattern;
  context.input = input;
  try {
    return script.runInContext(context, { timeout: timeoutMs }) === true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new RegexTimeoutError(
        `the pact's regex /${pattern.slice(0, 60)}/ ran past ${timeoutMs} ms on an answer of ${input.length} characters: not evaluated`,
      );
    throw error;
  }
}
