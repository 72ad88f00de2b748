/**
 * The human report: a header line, one line per check that did not fail (pass / skip / warn, a
 * skip naming its kind), then one FAIL line per finding (findings.ts: one answer that breaks
 * several rules is one finding listing them all; a fault seen on many answers is counted) with
 * its details (message, shrunk counterexample, curl line, replay command), the totals of
 * findings and of rules, and a closing line that never says more than what was checked.
 */

import { toolName } from '../base/usage-error.ts';
import { toCurl } from '../http/curl.ts';
import {
  type CheckResult,
  type SkipKind,
  type SuiteResult,
  skipKinds,
  verdictOf,
} from '../runner/results.ts';
import { type Finding, findingsOf, isBroken } from './findings.ts';

const labels = { pass: 'pass', fail: 'FAIL', skip: 'skip', warn: 'warn' } as const;

/** ANSI colours of the labels, used only on a terminal (see `useColour`). */
const colours = { pass: '32', fail: '31', skip: '2', warn: '33' } as const;

/** How a skip kind reads in a report. */
const skipKindWords: Record<SkipKind, string> = {
  'not-selected': 'not selected',
  'not-applicable': 'not applicable',
  'not-exercised': 'not exercised',
  'could-not-run': 'could not run',
};

/** Whether to colour output written to `stream`: a terminal, and `NO_COLOR` not set. */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

/** What the report needs to print a replay command. */
export interface ReplayInfo {
  /** The command line prefix to replay with, e.g. `npm run contract -- --base-url https://x/v1`. */
  readonly command: string;
  readonly seed: number;
}

/** The line printed before the checks run. */
export function formatHeader(
  target: string,
  details: { seed: number; writes: boolean; runPrefix?: string },
): string {
  const mode = details.writes
    ? `writes on${details.runPrefix ? `, pet names start with ${details.runPrefix}` : ''}`
    : 'read-only';
  return `${toolName}: checking ${target} (${mode}; seed ${details.seed})`;
}

/** The line printed once the budget and the property runs are decided. */
export function formatPlan(plan: { budget: number; budgetSource: string; runs: number }): string {
  const source = plan.budgetSource.replace(/^the default budget \((.*)\)$/, 'default: $1');
  return `${toolName}: up to ${plan.budget} requests (${source}); ${plan.runs} run${plan.runs === 1 ? '' : 's'} per property`;
}

/** The `--seed` flag as a replay line prints it: `=` so a negative seed is not read as a flag. */
function seedFlag(seed: number): string {
  return `--seed=${seed}`;
}

/**
 * The whole command that replays a failed check, as the user invoked the CLI: with the check that
 * sent the exchange, when another check did.
 */
export function replayLine(replay: ReplayInfo, result: CheckResult): string {
  // An observer judges the exchanges of other checks, so it replays with the whole run.
  if (result.kind !== 'active') return `${replay.command} ${seedFlag(replay.seed)}`;
  const seenIn = result.failure?.seenIn;
  const ids = seenIn === undefined || seenIn === 'preflight' ? [result.id] : [seenIn, result.id];
  return `${replay.command} ${seedFlag(replay.seed)} --only ${ids.join(',')}`;
}

/** Where a failure was seen, when another check's request showed it; else undefined. */
export function seenInLine(result: CheckResult): string | undefined {
  const seenIn = result.failure?.seenIn;
  if (seenIn === undefined) return undefined;
  const where = seenIn === 'preflight' ? 'the preflight (GET /pets)' : `a request of ${seenIn}`;
  return `seen in: ${where}; every rule's judge holds every exchange of the run`;
}

/** One check's line, plus its failure details (a failed check alone is a finding of its own). */
export function formatResult(result: CheckResult, replay?: ReplayInfo, colour = false): string {
  return formatFinding({ lead: result, also: [] }, replay, colour);
}

/** `on 12 answers` for a rule broken on more than one, else nothing. */
function onAnswers(result: CheckResult): string {
  const times = result.failure?.occurrences ?? 1;
  return times > 1 ? ` (on ${times} answers)` : '';
}

/**
 * A finding: its lead check's line and failure, each other rule the same answer breaks, then
 * the one curl line and replay command.
 */
export function formatFinding(finding: Finding, replay?: ReplayInfo, colour = false): string {
  const result = finding.lead;
  const label = labels[result.status];
  const shown = colour ? `\u001b[${colours[result.status]}m${label}\u001b[0m` : label;
  const lines = [`  ${shown}  ${result.id.padEnd(34)} ${result.title}`];
  if (result.reason !== undefined) {
    const kind = result.skip === undefined ? '' : `${skipKindWords[result.skip]}: `;
    lines.push(`        ${kind}${result.reason}`);
  }
  const failure = result.failure;
  if (failure !== undefined) {
    lines.push(`        ${failure.message}`);
    if ((failure.occurrences ?? 1) > 1)
      lines.push(
        `        seen on ${failure.occurrences} answers (the first is shown): one rule, one thing to fix`,
      );
    lines.push(`        rule: ${result.source} (openapi/interface.md)`);
    const seenIn = seenInLine(result);
    if (seenIn !== undefined) lines.push(`        ${seenIn}`);
    if (failure.counterexample !== undefined)
      lines.push(`        counterexample (shrunk): ${failure.counterexample}`);
    for (const note of failure.notes ?? []) lines.push(`        note: ${note}`);
    if (finding.also.length > 0) {
      lines.push(
        `        the same answer breaks ${finding.also.length} more rule${finding.also.length === 1 ? '' : 's'}:`,
      );
      for (const other of finding.also) {
        lines.push(
          `          ${other.id}${onAnswers(other)}: ${other.failure?.message ?? other.title}`,
          `            rule: ${other.source} (openapi/interface.md)`,
        );
        const otherSeenIn = seenInLine(other);
        if (otherSeenIn !== undefined) lines.push(`            ${otherSeenIn}`);
      }
    }
    if (failure.exchange !== undefined)
      lines.push(`        reproduce: ${toCurl(failure.exchange)}`);
    if (replay !== undefined) lines.push(`        replay: ${replayLine(replay, result)}`);
    if (failure.propertySeed !== undefined)
      lines.push(`        fast-check: seed ${failure.propertySeed}, path "${failure.path ?? ''}"`);
  }
  return lines.join('\n');
}

/**
 * The report's lines for finished checks: one line per check that is not broken, in their
 * order, then one FAIL line per finding.
 */
export function formatResults(
  results: readonly CheckResult[],
  options: {
    readonly replay?: ReplayInfo;
    readonly colour?: boolean;
    readonly strict?: boolean;
  } = {},
): string[] {
  const { replay, colour = false, strict = false } = options;
  return [
    ...results
      .filter((result) => !isBroken(result, strict))
      .map((result) => formatResult(result, replay, colour)),
    ...findingsOf(results, strict).map((finding) => formatFinding(finding, replay, colour)),
  ];
}

/** `1 finding (4 rules broken)`: the things to fix, and the rules they break. */
export function findingsLine(results: readonly CheckResult[], strict = false): string {
  const findings = findingsOf(results, strict).length;
  const rules = results.filter((result) => isBroken(result, strict)).length;
  return `${findings} finding${findings === 1 ? '' : 's'} (${rules} rule${rules === 1 ? '' : 's'} broken)`;
}

function count(suite: SuiteResult, predicate: (result: CheckResult) => boolean): number {
  return suite.results.filter(predicate).length;
}

/**
 * The closing lines: the findings (things to fix) and the rules they break, then the rules by
 * verdict and kind of skip, requests, 429s and time.
 */
export function formatSummary(suite: SuiteResult, strict = false): string {
  const status = (value: CheckResult['status']) =>
    count(suite, (result) => result.status === value);
  const skips = skipKinds
    .map((kind) => `${count(suite, (result) => result.skip === kind)} ${skipKindWords[kind]}`)
    .join(', ');
  const clock = suite.virtualTime ? " on the fake's virtual clock" : '';
  const waited =
    suite.waitedMs > 0
      ? `, ${(suite.waitedMs / 1000).toFixed(1)} s waiting for rate limits${clock}`
      : '';
  return [
    `${toolName}: ${findingsLine(suite.results, strict)}; rules: ${status('pass')} passed, ${status('fail')} failed, ${status('warn')} warned; skipped: ${skips} (${suite.runs} run${suite.runs === 1 ? '' : 's'} per property, seed ${suite.seed})`,
    `${toolName}: ${suite.requests} requests sent (${suite.keyRequests} with the key) of ${suite.budget.limit} allowed, ${suite.answered429} answered 429, in ${(suite.durationMs / 1000).toFixed(1)} s${waited}`,
  ].join('\n');
}

/**
 * The verdict line. A conforming run says how many checks it rests on and what did not run, so
 * a reader never takes a skip for a pass.
 */
export function formatVerdict(suite: SuiteResult, strict = false): string {
  const verdict = verdictOf(suite, strict);
  const ran = count(suite, (result) => result.status === 'pass' || result.status === 'warn');
  const notRun = skipKinds
    .map((kind) => [kind, count(suite, (result) => result.skip === kind)] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${skipKindWords[kind]}`);
  const rest = notRun.length === 0 ? '' : ` (not run: ${notRun.join(', ')})`;
  // A mock made from the document proves the harness raises no false alarm, nothing of a server.
  if (suite.selfTest !== undefined)
    return verdict === 'breaks'
      ? `${toolName}: self-test failed: the harness failed ${suite.selfTest} on checks it must pass there (a false alarm, see FAIL lines above)`
      : `${toolName}: self-test: no false alarm from the ${ran} checks that ran against ${suite.selfTest}, which keeps no pets, takes any key and counts no requests${rest}; this proves nothing of a server`;
  if (verdict === 'breaks')
    return `${toolName}: the server breaks the interface: ${findingsLine(suite.results, strict)} (see FAIL lines above)`;
  if (verdict === 'incomplete')
    return `${toolName}: incomplete: no check failed in the ${ran} that ran, but selected checks could not run${rest}`;
  return `${toolName}: the server conforms to the interface in all ${ran} checks that ran${rest}`;
}
