/**
 * The CLI's flow: options → target (optionally behind Prism) → run → report → exit code.
 * Exit 0 conforming, 1 a rule broken, 2 usage or connection error.
 */
import { writeFileSync } from 'node:fs';
import { formatHeader, formatResult, formatSummary } from '../report/console-report.ts';
import { toJunit } from '../report/junit.ts';
import { redact } from '../report/redact.ts';
import { conforms } from '../runner/results.ts';
import { runSuite } from '../runner/run-suite.ts';
import { httpFakeTarget } from '../targets/fake-target.ts';
import { prismMockTarget, viaPrism } from '../targets/prism-targets.ts';
import type { Target } from '../targets/target.ts';
import { urlTarget } from '../targets/url-target.ts';
import { type CliOptions, parseCliOptions } from './options.ts';
import { usage } from './usage.ts';
import { ContractUsageError, toolName } from './usage-error.ts';

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

async function openTarget(options: CliOptions): Promise<Target> {
  let target: Target;
  if (options.target.kind === 'url')
    target = urlTarget(options.target.baseUrl, options.target.apiKey);
  else if (options.target.kind === 'prism-mock') target = await prismMockTarget();
  else target = await httpFakeTarget({ apiKey: 'free-demo-key' }); // a Free key: --plan free fits
  if (!options.viaPrism) return target;
  try {
    return await viaPrism(target);
  } catch (error) {
    await target.close();
    throw error;
  }
}

/** Runs the CLI and resolves to its exit code. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, env);
  } catch (error) {
    if (!(error instanceof ContractUsageError)) throw error;
    io.err(`${error.message}\n${toolName}: run with --help for usage`);
    return 2;
  }
  if (options.help) {
    io.out(usage);
    return 0;
  }
  const key = options.target.kind === 'url' ? options.target.apiKey : '';
  const out = (line: string) => io.out(redact(line, key));
  let target: Target | undefined;
  try {
    target = await openTarget(options);
    const writes = options.writes ?? target.loopback;
    out(formatHeader(target.name, { seed: options.seed, budget: options.budget, writes }));
    const replay = {
      command: `npm run contract -- ${options.replayFlags.join(' ')}`,
      seed: options.seed,
    };
    const result = await runSuite({
      target,
      seed: options.seed,
      budget: options.budget,
      writes,
      rateLimits: options.rateLimits,
      ...(options.plan === undefined ? {} : { plan: options.plan }),
      timeoutMs: options.timeoutMs,
      maxWaitMs: options.maxWaitMs,
      ...(options.runs === undefined ? {} : { runs: options.runs }),
      ...(options.only === undefined ? {} : { only: options.only }),
      ...(options.skip === undefined ? {} : { skip: options.skip }),
      onResult: (check) => out(formatResult(check, replay)),
    });
    if (result.writes)
      out(`${toolName}: pets created by this run are named ${result.runPrefix}...`);
    out(formatSummary(result));
    if (options.junit !== undefined)
      writeFileSync(options.junit, redact(toJunit(result, options.strict), key));
    const ok = conforms(result, options.strict);
    const limited = result.results.filter((check) => check.stoppedByRateLimit === true);
    if (ok && limited.length > 0) {
      // No verdict: the key's quota, not the server's behaviour, stopped these checks.
      const why = limited[0]?.reason?.replace(/^stopped: /, '') ?? 'rate limited';
      // A longer --max-wait helps when a wait was too long, not when 429s outlasted the retries.
      const hint = limited.some((check) => check.reason?.includes('--max-wait'))
        ? 'rerun when its quota resets, or raise --max-wait'
        : 'rerun when its quota resets';
      io.err(
        redact(
          `${toolName}: the key's rate limit stopped ${limited.length} check(s) (${limited.map((check) => check.id).join(', ')}): ${why}; ${hint}`,
          key,
        ),
      );
      return 2;
    }
    out(
      `${toolName}: ${ok ? 'the server conforms to the interface' : 'the server breaks the interface (see FAIL lines above)'}`,
    );
    return ok ? 0 : 1;
  } catch (error) {
    if (error instanceof ContractUsageError) {
      io.err(redact(error.message, key));
      return 2;
    }
    throw error;
  } finally {
    await target?.close();
  }
}
