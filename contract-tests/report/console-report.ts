/**
 * The human report: a header line, one line per check (pass / FAIL / skip / warn), details under
 * each failure (message, shrunk counterexample, curl line, replay command), and the totals.
 */

import { toolName } from '../cli/usage-error.ts';
import { toCurl } from '../http/curl.ts';
import type { CheckResult, SuiteResult } from '../runner/results.ts';

const labels = { pass: 'pass', fail: 'FAIL', skip: 'skip', warn: 'warn' } as const;

/** What the report needs to print a replay command. */
export interface ReplayInfo {
  /** The command line prefix to replay with, e.g. `npm run contract -- --base-url https://x/v1`. */
  readonly command: string;
  readonly seed: number;
}

/** The line printed before the checks run. */
export function formatHeader(
  target: string,
  details: { seed: number; budget: number; writes: boolean; runPrefix?: string },
): string {
  const mode = details.writes
    ? `writes on${details.runPrefix ? `, pet names start with ${details.runPrefix}` : ''}`
    : 'read-only';
  return `${toolName}: checking ${target} (${mode}; budget ${details.budget} requests; seed ${details.seed})`;
}

/** One check's line, plus its failure details. */
export function formatResult(result: CheckResult, replay?: ReplayInfo): string {
  const lines = [`  ${labels[result.status]}  ${result.id.padEnd(34)} ${result.title}`];
  if (result.reason !== undefined)
    lines.push(`        ${result.status === 'skip' ? 'skipped: ' : ''}${result.reason}`);
  const failure = result.failure;
  if (failure !== undefined) {
    lines.push(`        ${failure.message}`);
    lines.push(`        rule: ${result.source}`);
    if (failure.counterexample !== undefined)
      lines.push(`        counterexample (shrunk): ${failure.counterexample}`);
    for (const note of failure.notes ?? []) lines.push(`        note: ${note}`);
    if (failure.exchange !== undefined)
      lines.push(`        reproduce: ${toCurl(failure.exchange)}`);
    // An observer judges the exchanges of other checks, so it replays with the whole run.
    if (replay !== undefined)
      lines.push(
        `        replay: ${replay.command} --seed ${replay.seed}${result.kind === 'active' ? ` --only ${result.id}` : ''}`,
      );
    if (failure.propertySeed !== undefined)
      lines.push(`        fast-check: seed ${failure.propertySeed}, path "${failure.path ?? ''}"`);
  }
  return lines.join('\n');
}

/** The closing lines: counts, requests, 429s and time. */
export function formatSummary(suite: SuiteResult): string {
  const count = (status: CheckResult['status']) =>
    suite.results.filter((result) => result.status === status).length;
  const clock = suite.virtualTime ? " on the fake's virtual clock" : '';
  const waited =
    suite.waitedMs > 0
      ? `, ${(suite.waitedMs / 1000).toFixed(1)} s waiting for rate limits${clock}`
      : '';
  return [
    `${toolName}: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} skipped (${suite.runs} run${suite.runs === 1 ? '' : 's'} per property, seed ${suite.seed})`,
    `${toolName}: ${suite.requests} requests sent, ${suite.answered429} answered 429, in ${(suite.durationMs / 1000).toFixed(1)} s${waited}`,
  ].join('\n');
}
