/**
 * Unknown command-line flags, answered with the nearest known one (`did you mean --base-url?`),
 * for every CLI of the package (the fake's, the harness's and its subcommands, the demo's).
 */

/** Edit distance between two short strings (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known flag nearest to `typed` (both without dashes), if one is near enough to suggest. */
function nearestFlag(typed: string, known: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  let best: { flag: string; score: number } | undefined;
  for (const flag of known) {
    // A prefix (`--base` for `--base-url`) is as near as a one-letter typo.
    const score = flag.startsWith(name) && name.length >= 3 ? 1 : distance(name, flag);
    if (best === undefined || score < best.score) best = { flag, score };
  }
  if (best === undefined || best.score > Math.max(2, Math.floor(name.length / 3))) return undefined;
  return best.flag;
}

/**
 * A `node:util` parseArgs error in a user's words: an unknown option names the nearest known
 * flag; anything else keeps parseArgs' own message.
 * @example throw new UsageError(describeParseError(error, Object.keys(options)))
 */
export function describeParseError(error: unknown, known: readonly string[]): string {
  const { code, message } = error as { code?: string; message: string };
  const option = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || option === undefined) return message;
  const near = nearestFlag(option, known);
  return `unknown option ${option}${near === undefined ? '' : `; did you mean --${near}?`}`;
}
