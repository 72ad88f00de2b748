/**
 * One run of the suite against an opened target, as the CLI prints it: the header, the plan,
 * each check as it finishes, the findings, the summary and the verdict, with --log, --junit and
 * --coverage written on the way. A run stopped by a signal still reports what finished.
 * Exit 0 conforming, 1 a rule broken, 2 no verdict.
 */
import { writeOutputFile } from '../../mock/internal/entry.ts';
import { ContractUsageError, toolName } from '../base/usage-error.ts';
import type { Target } from '../http/target.ts';
import {
  formatFinding,
  formatHeader,
  formatPlan,
  formatResult,
  formatSummary,
  formatVerdict,
  type ReplayInfo,
} from '../report/console-report.ts';
import { coverageLine, createRunCoverage, writeCoverage } from '../report/coverage.ts';
import { openExchangeLog } from '../report/exchange-log.ts';
import { findingsOf, isBroken } from '../report/findings.ts';
import { toJunit } from '../report/junit.ts';
import type { Redactor } from '../report/redact.ts';
import { type CheckResult, type SuiteResult, verdictOf } from '../runner/results.ts';
import { createRunClient } from '../runner/run-client.ts';
import { runSuite } from '../runner/run-suite.ts';
import type { CliIo } from './cli-io.ts';
import type { CliOptions } from './options.ts';
import type { StopReason } from './stop-signals.ts';
import { stoppedRunOutcome } from './stopped-run.ts';

/** Why a run that broke no rule has no verdict, one line per cause, naming what would fix it. */
function incompleteMessage(result: SuiteResult): string {
  const stuck = result.results.filter((check) => check.skip === 'could-not-run');
  const limited = stuck.filter((check) => check.stoppedByRateLimit === true);
  const lines: string[] = [];
  if (limited.length > 0) {
    const why = limited[0]?.reason?.replace(/^stopped: /, '') ?? 'rate limited';
    // A longer --max-wait helps when a wait was too long, not when 429s outlasted the retries.
    const hint = limited.some((check) => check.reason?.includes('--max-wait'))
      ? 'rerun when its quota resets, or raise --max-wait'
      : 'rerun when its quota resets';
    lines.push(
      `${toolName}: the key's rate limit stopped ${limited.length} check(s) (${limited.map((check) => check.id).join(', ')}): ${why}; ${hint}`,
    );
  }
  const others = stuck.filter((check) => check.stoppedByRateLimit !== true);
  if (others.length > 0)
    lines.push(
      `${toolName}: incomplete, no verdict: ${others.length} selected check(s) could not run:`,
      ...others.map((check) => `${toolName}:   ${check.id}: ${check.reason ?? 'could not run'}`),
    );
  return lines.join('\n');
}

/** Runs `write`; a file that cannot be written is the user's to fix (exit 2), not a crash. */
function writable<T>(flag: string, path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw new ContractUsageError(
      `cannot write the ${flag} file ${path}: ${(error as Error).message}; pick a path in a folder that exists and is writable`,
    );
  }
}

/** One run of the suite against `target`, printed to `io`; resolves to the exit code. */
export async function runSuiteOnTarget(
  options: CliOptions,
  io: CliIo,
  target: Target,
  redact: Redactor,
  command: string,
): Promise<number> {
  const { strict } = options;
  const writes = options.suite.writes ?? target.loopback;
  const replay: ReplayInfo = {
    command: `${command} ${options.replayFlags.join(' ')}`,
    seed: options.client.seed,
  };
  const coverage = options.coverage === undefined ? undefined : createRunCoverage();
  const finished: CheckResult[] = [];
  let finishedSoFar: (() => CheckResult[]) | undefined;
  let sent = 0;

  const out = (line: string): void => io.out(redact(line));

  /** Records a final result, and prints its line unless it is broken (its finding comes last). */
  const show = (check: CheckResult): void => {
    coverage?.finished(check);
    finished.push(check);
    if (!isBroken(check, strict)) out(formatResult(check, replay, io.colour ?? false));
  };

  /** One FAIL line per finding of the checks that finished, with every rule it breaks. */
  const printFindings = (results: readonly CheckResult[]): void => {
    for (const finding of findingsOf(results, strict))
      out(formatFinding(finding, replay, io.colour ?? false));
  };

  const writeJunit = (suite: SuiteResult): void => {
    const junitPath = options.junit;
    if (junitPath !== undefined)
      writable('--junit', junitPath, () =>
        writeOutputFile(junitPath, redact(toJunit(suite, strict, replay))),
      );
  };

  /** Writes --coverage, if asked, and says so; false when the file could not be written. */
  const finishCoverage = (results: readonly CheckResult[]): boolean => {
    const path = options.coverage;
    if (coverage === undefined || path === undefined) return true;
    const record = coverage.record(results);
    const problem = writeCoverage(path, record, redact);
    if (problem !== undefined) {
      io.err(`${toolName}: ${problem}`);
      return false;
    }
    out(`${toolName}: ${coverageLine(record, path)}`);
    return true;
  };

  const completed = (result: SuiteResult): number => {
    printFindings(result.results);
    if (result.writes)
      out(`${toolName}: pets created by this run are named ${result.runPrefix}...`);
    out(formatSummary(result, strict));
    writeJunit(result);
    if (!finishCoverage(result.results)) return 2;
    const verdict = verdictOf(result, strict);
    if (verdict === 'incomplete') {
      io.err(redact(incompleteMessage(result)));
      return 2;
    }
    out(formatVerdict(result, strict));
    return verdict === 'conforms' ? 0 : 1;
  };

  const stopped = (reason: StopReason, startedAt: number): number => {
    // The active checks that finished, their judges settled on what the run sent before it
    // stopped: nothing sent later can change them now.
    const shown = new Set(finished.map((check) => check.id));
    for (const check of finishedSoFar?.() ?? []) if (!shown.has(check.id)) show(check);
    printFindings(finished);
    const outcome = stoppedRunOutcome(
      {
        reason,
        target: target.name,
        baseUrl: target.baseUrl,
        seed: options.client.seed,
        writes,
        finished,
        requests: sent,
        startedAt,
      },
      strict,
    );
    io.err(redact(outcome.message));
    writeJunit(outcome.suite);
    finishCoverage(finished);
    return outcome.code;
  };

  out(formatHeader(target.name, { seed: options.client.seed, writes }));
  const logPath = options.log;
  const log =
    logPath === undefined
      ? undefined
      : writable('--log', logPath, () => openExchangeLog(logPath, redact));
  const startedAt = Date.now();
  const running = runSuite({
    ...options.suite,
    client: createRunClient(target, {
      ...options.client,
      redact,
      onWait: (wait) =>
        out(`${toolName}: waiting ${(wait.ms / 1000).toFixed(1)} s for ${wait.reason}`),
      onExchange: (exchange) => {
        sent += 1;
        log?.(exchange);
        coverage?.see(exchange);
      },
    }),
    writes,
    onStarted: (soFar) => {
      finishedSoFar = soFar;
    },
    onNotAPetStore: (lines) => {
      for (const line of lines) out(line);
    },
    onPlan: (plan) => {
      coverage?.planned();
      out(formatPlan(plan));
    },
    onResult: show,
  });
  // A long run can be stopped (Ctrl-C, SIGTERM, npm killed above it): it still reports.
  const untilStopped = io.untilStopped;
  const ended = await Promise.race([
    running.then((result) => ({ result })),
    ...(untilStopped === undefined ? [] : [untilStopped().then((reason) => ({ reason }))]),
  ]);
  if ('result' in ended) return completed(ended.result);
  running.catch(() => {});
  return stopped(ended.reason, startedAt);
}
