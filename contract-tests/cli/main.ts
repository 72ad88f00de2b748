/**
 * The CLI's flow: options → target (optionally behind Prism) → run → report → exit code.
 * Exit 0 conforming, 1 a rule broken, 2 no verdict (usage, connection, or checks that could not run).
 */
import { UsageError, writeOutputFile } from '../../mock/internal/entry.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { ContractUsageError, contractMessage, toolName } from '../base/usage-error.ts';
import type { Target } from '../http/target.ts';
import {
  formatFinding,
  formatHeader,
  formatPlan,
  formatResult,
  formatSummary,
  formatVerdict,
} from '../report/console-report.ts';
import { coverageLine, createRunCoverage, writeCoverage } from '../report/coverage.ts';
import { openExchangeLog } from '../report/exchange-log.ts';
import { findingsOf, isBroken } from '../report/findings.ts';
import { toJunit } from '../report/junit.ts';
import { createEnvRedactor, createRedactor, type Redactor } from '../report/redact.ts';
import { type CheckResult, type SuiteResult, verdictOf } from '../runner/results.ts';
import { createRunClient } from '../runner/run-client.ts';
import { runSuite } from '../runner/run-suite.ts';
import { httpFakeTarget } from '../targets/fake-target.ts';
import { prismMockTarget, viaPrism } from '../targets/prism-targets.ts';
import { urlTarget } from '../targets/url-target.ts';
import { runCalibrateCommand } from './calibrate-command.ts';
import type { CliIo } from './cli-io.ts';
import { checkOutputPath } from './flag-values.ts';
import { type CliOptions, parseCliOptions } from './options.ts';
import { runProxyCommand } from './proxy-command.ts';
import { stoppedRunOutcome } from './stopped-run.ts';
import { usage } from './usage.ts';
import { runVerifyPactCommand } from './verify-pact-command.ts';

/** The npm script that runs the harness in this repository. */
const repositoryCommand = 'npm run contract --';

/** The fake's demo key for a `--fake` run: the plan's, or one whose window a run never spends. */
function fakeKey(options: CliOptions): string {
  const { plan, rateLimits } = options.suite;
  if (plan !== undefined) return `${plan}-demo-key`;
  // A Free key's window is quick to spend; an Enterprise key's takes 10,000 requests.
  return rateLimits ? 'free-demo-key' : 'enterprise-demo-key';
}

async function openTarget(options: CliOptions): Promise<Target> {
  let target: Target;
  if (options.target.kind === 'url')
    target = urlTarget(options.target.baseUrl, options.target.apiKey, options.target.secondApiKey);
  else if (options.target.kind === 'prism-mock') target = await prismMockTarget();
  else {
    target = await httpFakeTarget({ apiKey: fakeKey(options) });
    // The fake's demo key of the --plan2 plan is the second key.
    if (options.suite.plan2 !== undefined)
      target = { ...target, secondApiKey: `${options.suite.plan2}-demo-key` };
  }
  if (!options.viaPrism) return target;
  try {
    return await viaPrism(target);
  } catch (error) {
    await target.close();
    throw error;
  }
}

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

/** The commands besides the run itself, by their first argument. */
const subcommands: Readonly<
  Record<string, (args: readonly string[], env: NodeJS.ProcessEnv, io: CliIo) => Promise<number>>
> = {
  proxy: (args, env, io) =>
    runProxyCommand(args, {
      out: io.out,
      err: io.err,
      // Any number of signals: the command's group is ended and the report written all the same.
      stopped: io.untilStopped?.('finish') ?? new Promise(() => {}),
      env,
      command: io.command ?? repositoryCommand,
    }),
  calibrate: runCalibrateCommand,
  'verify-pact': runVerifyPactCommand,
};

/** Runs the CLI and resolves to its exit code. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  const name = argv[0];
  const subcommand =
    name !== undefined && Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
  if (subcommand !== undefined) {
    try {
      return await subcommand(argv.slice(1), env, io);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      const redact = createEnvRedactor(env);
      io.err(
        `${redact(contractMessage(error))}\n${toolName}: run ${io.command ?? repositoryCommand} ${name} --help for usage`,
      );
      return 2;
    }
  }
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(
      `${contractMessage(error)}\n${toolName}: run ${io.command ?? repositoryCommand} --help for usage`,
    );
    return 2;
  }
  if (options.help) {
    io.out(usage(io.command ?? repositoryCommand, io.docs ?? 'contract-tests/README.md'));
    return 0;
  }
  if (options.version) {
    io.out(`${toolName} ${packageJson.version}`);
    return 0;
  }
  // The fake's and Prism's keys are demo keys: only a real server's keys are secrets. Bearer
  // values and credential parameters are hidden whatever the target.
  const redact: Redactor =
    options.target.kind === 'url' ? createEnvRedactor(env) : createRedactor(() => []);
  const out = (line: string) => io.out(redact(line));
  let target: Target | undefined;
  try {
    // Before the first request: a typo in an output path must not cost the key's window.
    checkOutputPath('--junit', options.junit);
    checkOutputPath('--log', options.log);
    checkOutputPath('--coverage', options.coverage);
    target = await openTarget(options);
    const { seed } = options.client;
    const writes = options.suite.writes ?? target.loopback;
    out(formatHeader(target.name, { seed, writes }));
    const replay = {
      command: `${io.command ?? repositoryCommand} ${options.replayFlags.join(' ')}`,
      seed,
    };
    const logPath = options.log;
    const log =
      logPath === undefined
        ? undefined
        : writable('--log', logPath, () => openExchangeLog(logPath, redact));
    const finished: CheckResult[] = [];
    const coverage = options.coverage === undefined ? undefined : createRunCoverage();
    /** Writes --coverage, if asked, and says so; false when the file could not be written. */
    const finishCoverage = (results: readonly CheckResult[]): boolean => {
      if (coverage === undefined || options.coverage === undefined) return true;
      const record = coverage.record(results);
      const problem = writeCoverage(options.coverage, record, redact);
      if (problem !== undefined) {
        io.err(`${toolName}: ${problem}`);
        return false;
      }
      out(`${toolName}: ${coverageLine(record, options.coverage)}`);
      return true;
    };
    let sent = 0;
    const startedAt = Date.now();
    const client = createRunClient(target, {
      ...options.client,
      redact,
      onWait: (wait) =>
        out(`${toolName}: waiting ${(wait.ms / 1000).toFixed(1)} s for ${wait.reason}`),
      onExchange: (exchange) => {
        sent += 1;
        log?.(exchange);
        coverage?.see(exchange);
      },
    });
    const running = runSuite({
      ...options.suite,
      client,
      writes,
      onPlan: (plan) => {
        coverage?.planned();
        out(formatPlan(plan));
      },
      onResult: (check) => {
        coverage?.finished(check);
        finished.push(check);
        // A broken rule is printed in its finding, once every check has said what it broke.
        if (!isBroken(check, options.strict)) out(formatResult(check, replay, io.colour ?? false));
      },
    });
    /** One FAIL line per finding of the checks that finished, with every rule it breaks. */
    const printFindings = () => {
      for (const finding of findingsOf(finished, options.strict))
        out(formatFinding(finding, replay, io.colour ?? false));
    };
    // A long run can be stopped (Ctrl-C, SIGTERM, npm killed above it): it still reports.
    const ended = await Promise.race([
      running.then((result) => ({ result })),
      ...(io.untilStopped === undefined ? [] : [io.untilStopped().then((reason) => ({ reason }))]),
    ]);
    if ('reason' in ended) {
      running.catch(() => {});
      printFindings();
      const stopped = stoppedRunOutcome(
        {
          reason: ended.reason,
          target: target.name,
          baseUrl: target.baseUrl,
          seed,
          writes,
          finished,
          requests: sent,
          startedAt,
        },
        options.strict,
      );
      io.err(redact(stopped.message));
      const junitPath = options.junit;
      if (junitPath !== undefined)
        writable('--junit', junitPath, () =>
          writeOutputFile(junitPath, redact(toJunit(stopped.suite, options.strict, replay))),
        );
      finishCoverage(finished);
      return stopped.code;
    }
    const result = ended.result;
    printFindings();
    if (result.writes)
      out(`${toolName}: pets created by this run are named ${result.runPrefix}...`);
    out(formatSummary(result, options.strict));
    const junitPath = options.junit;
    if (junitPath !== undefined)
      writable('--junit', junitPath, () =>
        writeOutputFile(junitPath, redact(toJunit(result, options.strict, replay))),
      );
    if (!finishCoverage(result.results)) return 2;
    const verdict = verdictOf(result, options.strict);
    if (verdict === 'incomplete') {
      io.err(redact(incompleteMessage(result)));
      return 2;
    }
    out(formatVerdict(result, options.strict));
    return verdict === 'conforms' ? 0 : 1;
  } catch (error) {
    if (error instanceof ContractUsageError) {
      io.err(redact(error.message));
      return 2;
    }
    throw error;
  } finally {
    await target?.close();
  }
}
