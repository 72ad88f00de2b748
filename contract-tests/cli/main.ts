/**
 * The CLI's flow: a subcommand, or options → target (optionally behind Prism) → the run and its
 * report (suite-run.ts) → exit code.
 * Exit 0 conforming, 1 a rule broken, 2 no verdict (usage, connection, or checks that could not run).
 */
import { UsageError } from '../../mock/internal/entry.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { ContractUsageError, contractMessage, toolName } from '../base/usage-error.ts';
import type { Target } from '../http/target.ts';
import { createEnvRedactor, createRedactor, type Redactor } from '../report/redact.ts';
import { httpFakeTarget } from '../targets/fake-target.ts';
import { prismMockTarget, viaPrism } from '../targets/prism-targets.ts';
import { urlTarget } from '../targets/url-target.ts';
import { runCalibrateCommand } from './calibrate-command.ts';
import type { CliIo } from './cli-io.ts';
import { checkOutputPath } from './flag-values.ts';
import { type CliOptions, parseCliOptions } from './options.ts';
import { runProxyCommand } from './proxy-command.ts';
import { runSuiteOnTarget } from './suite-run.ts';
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
  return runAgainstTarget(options, env, io);
}

/** Opens the target, runs the suite against it and closes it, whatever happened. */
async function runAgainstTarget(
  options: CliOptions,
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  // The fake's and Prism's keys are demo keys: only a real server's keys are secrets. Bearer
  // values and credential parameters are hidden whatever the target.
  const redact: Redactor =
    options.target.kind === 'url' ? createEnvRedactor(env) : createRedactor(() => []);
  let target: Target | undefined;
  try {
    // Before the first request: a typo in an output path must not cost the key's window.
    checkOutputPath('--junit', options.junit);
    checkOutputPath('--log', options.log);
    checkOutputPath('--coverage', options.coverage);
    target = await openTarget(options);
    return await runSuiteOnTarget(options, io, target, redact, io.command ?? repositoryCommand);
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
