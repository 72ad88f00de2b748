/**
 * A request path's segments as a server that decodes percent-escapes (once, twice...) may read
 * them: `%2e%2e` is `..`, `%252e` is `.` decoded twice, `..%2F..` two dot segments behind an
 * encoded slash. verify-pact and the proxy refuse a path whose segments climb out of the base URL
 * before sending it, whatever encoding hides them.
 */

/** Decodes percent-escapes until none are left (a few rounds at most); undefined if it cannot. */
function fullyDecoded(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Why `path` (no query) may climb out of where it points, or undefined: a segment that does not
 * decode, or one that decodes to `.` or `..`, alone or between slashes or backslashes it hid.
 */
export function dotSegmentProblem(path: string): string | undefined {
  for (const segment of path.split('/')) {
    const plain = fullyDecoded(segment);
    if (plain === undefined) return `a segment that does not decode (${segment.slice(0, 40)})`;
    if (plain.split(/[/\\]/).some((part) => part === '.' || part === '..'))
      return 'a dot segment (".." or ".", encoded or not)';
  }
  return undefined;
}
