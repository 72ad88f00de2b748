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
 * The findings about the answer (request findings are the harness's doing: many requests break
 * the document on purpose); `[]` without the header, `undefined` when it is not readable JSON.
 */
export function answerViolations(headers: Headers): PrismViolation[] | undefined {
  const raw = headers.get('sl-violations');
  if (raw === null) return [];
  try {
    const list = JSON.parse(raw) as PrismViolation[];
    return list.filter((item) => item.location?.[0] === 'response');
  } catch {
    return undefined;
  }
}

/**
 * Whether a finding is Prism's own int64 limit: it holds integers to +-(2^53 - 1), so a valid
 * int64 past that was rounded in what it forwarded, and is no fault of the server's.
 */
export function roundedByPrism(violation: PrismViolation): boolean {
  return /must be [<>]= -?9007199254740991$/.test(violation.message ?? '');
}
