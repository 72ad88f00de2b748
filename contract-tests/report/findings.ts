/**
 * Findings: the things to fix. A check's failure names the exchange that showed it; one answer
 * that breaks several rules (a gateway's HTML 414 is no Error, no JSON and carries no
 * X-RateLimit-*) is one finding listing every rule it breaks, and an observer that saw the same
 * fault on many answers (every 429 without Retry-After) is one finding with its count and the
 * first example. So a report's FAIL count is the number of things to fix, and it counts the
 * rules broken apart (STYLE.md: "One cause is one finding, listing every rule it breaks").
 */
import type { Exchange } from '../http/exchange.ts';
import type { CheckResult } from '../runner/results.ts';

/** One thing to fix: the checks one answer broke, the first of them leading. */
export interface Finding {
  /**
   * The check that names the finding: the first of its checks in the run's order whose own
   * request showed it, else the first (every rule's judge holds every exchange of a run).
   */
  readonly lead: CheckResult;
  /** The other checks the same answer broke, in the run's order. */
  readonly also: readonly CheckResult[];
}

/** Whether a check counts as broken: a failure, or a warning with `--strict`. */
export function isBroken(result: CheckResult, strict = false): boolean {
  return result.status === 'fail' || (strict && result.status === 'warn');
}

/**
 * What identifies the answer a failure was shown on: the exchange object every check and
 * observer of a run shares (the client hands the same one to both), else its request and the
 * moment it was sent. A failure without an exchange (a model's sequence, a window's arithmetic)
 * is a finding of its own.
 */
function answerKey(exchange: Exchange): string {
  return `${exchange.spec.method} ${exchange.url} @${exchange.sentAt}`;
}

/**
 * The broken checks of a run grouped by the answer that showed them, in the order their first
 * check comes in `results`; checks that are not broken are in no finding.
 * @example findingsOf(suite.results).length // the number of FAIL lines
 */
export function findingsOf(results: readonly CheckResult[], strict = false): Finding[] {
  const byAnswer = new Map<string, { lead: CheckResult; also: CheckResult[] }>();
  const findings: { lead: CheckResult; also: CheckResult[] }[] = [];
  for (const result of results) {
    if (!isBroken(result, strict)) continue;
    const exchange = result.failure?.exchange;
    const key = exchange === undefined ? undefined : answerKey(exchange);
    const same = key === undefined ? undefined : byAnswer.get(key);
    if (same !== undefined) {
      // The check that sent the answer leads the rules another check's judge found on it.
      if (same.lead.failure?.seenIn !== undefined && result.failure?.seenIn === undefined) {
        same.also.unshift(same.lead);
        same.lead = result;
      } else same.also.push(result);
      continue;
    }
    const finding = { lead: result, also: [] };
    findings.push(finding);
    if (key !== undefined) byAnswer.set(key, finding);
  }
  return findings;
}

/** The checks of a finding, its lead first. */
export function rulesOf(finding: Finding): readonly CheckResult[] {
  return [finding.lead, ...finding.also];
}
