/**
 * One run of the suite against an opened target, as the CLI prints it: the header, the plan,
 * each check as it finishes, the findings, the summary and the verdict, with --log, --junit and
 * --coverage written on the way. A run stopped by a signal still reports what finished.
 * Exit 0 conforming, 1 a rule broken, 2 no verdict.
 */
import { writeOutputFile } from '../../mock/internal/entry.ts';
import { ContractUsageError, toolName } from '../base/usage-error.ts';
import type { Exchange } from '../http/exchange.ts';
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

/** One run of the suite against `target`, printed to `io`; `run` resolves to the exit code. */
export class SuiteRun {
  readonly #options: CliOptions;
  readonly #io: CliIo;
  readonly #target: Target;
  readonly #redact: Redactor;
  readonly #writes: boolean;
  readonly #replay: ReplayInfo;
  readonly #finished: CheckResult[] = [];
  readonly #coverage: ReturnType<typeof createRunCoverage> | undefined;
  #log: ((exchange: Exchange) => void) | undefined;
  #finishedSoFar: (() => CheckResult[]) | undefined;
  #sent = 0;
  #startedAt = 0;

  constructor(options: CliOptions, io: CliIo, target: Target, redact: Redactor, command: string) {
    this.#options = options;
    this.#io = io;
    this.#target = target;
    this.#redact = redact;
    this.#writes = options.suite.writes ?? target.loopback;
    this.#replay = {
      command: `${command} ${options.replayFlags.join(' ')}`,
      seed: options.client.seed,
    };
    this.#coverage = options.coverage === undefined ? undefined : createRunCoverage();
  }

  readonly #out = (line: string): void => this.#io.out(this.#redact(line));

  async run(): Promise<number> {
    const options = this.#options;
    this.#out(formatHeader(this.#target.name, { seed: options.client.seed, writes: this.#writes }));
    const logPath = options.log;
    this.#log =
      logPath === undefined
        ? undefined
        : writable('--log', logPath, () => openExchangeLog(logPath, this.#redact));
    this.#startedAt = Date.now();
    const running = runSuite({
      ...options.suite,
      client: this.#client(),
      writes: this.#writes,
      onStarted: (finishedSoFar) => {
        this.#finishedSoFar = finishedSoFar;
      },
      onNotAPetStore: (lines) => {
        for (const line of lines) this.#out(line);
      },
      onPlan: (plan) => {
        this.#coverage?.planned();
        this.#out(formatPlan(plan));
      },
      onResult: (check) => this.#show(check),
    });
    // A long run can be stopped (Ctrl-C, SIGTERM, npm killed above it): it still reports.
    const untilStopped = this.#io.untilStopped;
    const ended = await Promise.race([
      running.then((result) => ({ result })),
      ...(untilStopped === undefined ? [] : [untilStopped().then((reason) => ({ reason }))]),
    ]);
    if ('result' in ended) return this.#completed(ended.result);
    running.catch(() => {});
    return this.#stopped(ended.reason);
  }

  /** Records a final result, and prints its line unless it is broken (its finding comes last). */
  #show(check: CheckResult): void {
    this.#coverage?.finished(check);
    this.#finished.push(check);
    if (!isBroken(check, this.#options.strict))
      this.#out(formatResult(check, this.#replay, this.#io.colour ?? false));
  }

  #client() {
    return createRunClient(this.#target, {
      ...this.#options.client,
      redact: this.#redact,
      onWait: (wait) =>
        this.#out(`${toolName}: waiting ${(wait.ms / 1000).toFixed(1)} s for ${wait.reason}`),
      onExchange: (exchange) => {
        this.#sent += 1;
        this.#log?.(exchange);
        this.#coverage?.see(exchange);
      },
    });
  }

  #completed(result: SuiteResult): number {
    const { strict } = this.#options;
    this.#printFindings(result.results);
    if (result.writes)
      this.#out(`${toolName}: pets created by this run are named ${result.runPrefix}...`);
    this.#out(formatSummary(result, strict));
    this.#writeJunit(result);
    if (!this.#finishCoverage(result.results)) return 2;
    const verdict = verdictOf(result, strict);
    if (verdict === 'incomplete') {
      this.#io.err(this.#redact(incompleteMessage(result)));
      return 2;
    }
    this.#out(formatVerdict(result, strict));
    return verdict === 'conforms' ? 0 : 1;
  }

  #stopped(reason: StopReason): number {
    // The active checks that finished, their judges settled on what the run sent before it
    // stopped: nothing sent later can change them now.
    const shown = new Set(this.#finished.map((check) => check.id));
    for (const check of this.#finishedSoFar?.() ?? []) if (!shown.has(check.id)) this.#show(check);
    const finished = this.#finished;
    this.#printFindings(finished);
    const stopped = stoppedRunOutcome(
      {
        reason,
        target: this.#target.name,
        baseUrl: this.#target.baseUrl,
        seed: this.#options.client.seed,
        writes: this.#writes,
        finished,
        requests: this.#sent,
        startedAt: this.#startedAt,
      },
      this.#options.strict,
    );
    this.#io.err(this.#redact(stopped.message));
    this.#writeJunit(stopped.suite);
    this.#finishCoverage(finished);
    return stopped.code;
  }

  /** One FAIL line per finding of the checks that finished, with every rule it breaks. */
  #printFindings(finished: readonly CheckResult[]): void {
    for (const finding of findingsOf(finished, this.#options.strict))
      this.#out(formatFinding(finding, this.#replay, this.#io.colour ?? false));
  }

  #writeJunit(suite: SuiteResult): void {
    const junitPath = this.#options.junit;
    if (junitPath !== undefined)
      writable('--junit', junitPath, () =>
        writeOutputFile(
          junitPath,
          this.#redact(toJunit(suite, this.#options.strict, this.#replay)),
        ),
      );
  }

  /** Writes --coverage, if asked, and says so; false when the file could not be written. */
  #finishCoverage(results: readonly CheckResult[]): boolean {
    const path = this.#options.coverage;
    if (this.#coverage === undefined || path === undefined) return true;
    const record = this.#coverage.record(results);
    const problem = writeCoverage(path, record, this.#redact);
    if (problem !== undefined) {
      this.#io.err(`${toolName}: ${problem}`);
      return false;
    }
    this.#out(`${toolName}: ${coverageLine(record, path)}`);
    return true;
  }
}
