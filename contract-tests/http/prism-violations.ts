/**
 * Prism's findings in the `sl-violations` header of an answer that went through `prism proxy`:
 * read once here, for the wrapper that re-reads answers Prism rounded and for the observer that
 * judges the rest.
 */

/** One finding, as Prism writes it. */
export interface PrismViolation {
  readonly location?: readonly string[];
  readonly message?: string;
  readonly severity?: string;
}

/**
 * What Prism writes before its findings when their JSON passes its header limit, then the JSON
 * cut at 8 KiB - 100 characters (`addViolationHeader` in @stoplight/prism-http-server's
 * dist/server.js): a listing of many pets whose int64s Prism rounded gets there.
 */
const cutPrefix = 'Too many violations! ';

/** The whole findings at the front of Prism's cut JSON array, or `undefined` if none is whole. */
function wholeFindingsOf(cut: string): PrismViolation[] | undefined {
  // Each finding is a flat object (its location an array of strings), so a `},` ends one.
  for (let end = cut.lastIndexOf('},'); end > 0; end = cut.lastIndexOf('},', end - 1)) {
    try {
      return JSON.parse(`${cut.slice(0, end + 1)}]`) as PrismViolation[];
    } catch {
      // a `},` inside a message: try the one before
    }
  }
  return undefined;
}

/**
 * The findings about the answer (request findings are the harness's doing: many requests break
 * the document on purpose); `[]` without the header, `undefined` when it is not readable JSON.
 * When Prism cut the header, the findings before the cut.
 */
export function answerViolations(headers: Headers): PrismViolation[] | undefined {
  const raw = headers.get('sl-violations');
  if (raw === null) return [];
  let list: PrismViolation[] | undefined;
  try {
    list = raw.startsWith(cutPrefix)
      ? wholeFindingsOf(raw.slice(cutPrefix.length))
      : (JSON.parse(raw) as PrismViolation[]);
  } catch {
    return undefined;
  }
  return list?.filter((item) => item.location?.[0] === 'response');
}

/**
 * Whether a finding is Prism's own int64 limit: it holds integers to +-(2^53 - 1), so a valid
 * int64 past that was rounded in what it forwarded, and is no fault of the server's.
 */
export function roundedByPrism(violation: PrismViolation): boolean {
  return /must be [<>]= -?9007199254740991$/.test(violation.message ?? '');
}
