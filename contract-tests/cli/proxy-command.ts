/**
 * `petstore-contract proxy --target <url>`: conformance from real traffic. Forwards every
 * request to the target and judges each exchange with the harness's observers; on SIGINT or
 * SIGTERM it prints the verdicts (and writes `--junit`), exit 0 when no rule was seen broken,
 * 1 when one was. It sends no request of its own, so it costs the key nothing.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { PlanName } from '../contract/interface-facts.ts';
import { toCurl } from '../http/curl.ts';
import { defaultMaxBodyBytes } from '../http/send.ts';
import { createPassiveVerdicts } from '../proxy/passive-verdicts.ts';
import { startProxy } from '../proxy/proxy-server.ts';
import { formatResult } from '../report/console-report.ts';
import { toJunit } from '../report/junit.ts';
import { createRedactor, type Redactor } from '../report/redact.ts';
import type { CheckResult, SuiteResult } from '../runner/results.ts';
import { normaliseBaseUrl } from '../targets/url-target.ts';
import { integer, parsePlan } from './flag-values.ts';
import { ContractUsageError, toolName } from './usage-error.ts';

/** The proxy's help text. */
const proxyUsage = `Usage: npm run contract -- proxy --target <url> [options]

Forwards every request to the target unchanged and checks each exchange against
the interface (the every-response checks, and those that compare exchanges:
Remaining going down per key, created pets read back unchanged, unique ids). It
sends no request of its own. Verdicts: GET /__contract/report (?format=json) at
any time, and on SIGINT/SIGTERM (then exit 0: no rule broken, 1: a rule broken).

Options:
  --target <url>          the server's base address, ending in /v1
  --port <n>              port to listen on (default 4020; 0 picks a free one)
  --host <address>        address to bind (default 127.0.0.1)
  --plan <name>           the plan of the keys in the traffic (free, pro, business)
  --junit <file>          write a JUnit XML report on exit
  --max-body-bytes <n>    most bytes of a body kept to judge it (default 4194304)
  -h, --help              this text`;

/** Where the proxy writes, and what stops it. */
export interface ProxyIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Resolves when the proxy should stop (SIGINT, SIGTERM). */
  readonly stopped: Promise<void>;
}

interface ProxyFlags {
  readonly target: string;
  readonly port: number;
  readonly host: string;
  readonly plan: PlanName | undefined;
  readonly junit: string | undefined;
  readonly maxBodyBytes: number;
  readonly help: boolean;
}

function parseProxyFlags(argv: readonly string[]): ProxyFlags {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        plan: { type: 'string' },
        junit: { type: 'string' },
        'max-body-bytes': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new ContractUsageError(`proxy: ${(error as Error).message}`);
  }
  const help = values.help === true;
  const target = typeof values.target === 'string' ? values.target : undefined;
  if (!help && target === undefined)
    throw new ContractUsageError('proxy: --target <url> is required (the base URL, ending in /v1)');
  return {
    help,
    target: target === undefined ? '' : normaliseBaseUrl(target, '--target'),
    port: integer(values.port as string | undefined, '--port', 4020, 0, 65_535),
    host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    plan: parsePlan(values.plan as string | undefined),
    junit: typeof values.junit === 'string' ? values.junit : undefined,
    maxBodyBytes: integer(
      values['max-body-bytes'] as string | undefined,
      '--max-body-bytes',
      defaultMaxBodyBytes,
      0,
      1024 ** 3,
    ),
  };
}

function jsonReport(target: string, forwarded: number, judged: number, results: CheckResult[]) {
  return JSON.stringify(
    {
      target,
      forwarded,
      judged,
      results: results.map((result) => ({
        id: result.id,
        status: result.status,
        ...(result.skip === undefined ? {} : { skip: result.skip, reason: result.reason }),
        ...(result.failure === undefined
          ? {}
          : {
              failure: result.failure.message,
              rule: result.source,
              ...(result.failure.exchange === undefined
                ? {}
                : { reproduce: toCurl(result.failure.exchange) }),
            }),
      })),
    },
    null,
    2,
  );
}

/** Runs the proxy until `io.stopped`; resolves to the exit code. */
export async function runProxyCommand(argv: readonly string[], io: ProxyIo): Promise<number> {
  const flags = parseProxyFlags(argv);
  if (flags.help) {
    io.out(proxyUsage);
    return 0;
  }
  const verdicts = createPassiveVerdicts(flags.plan);
  const keys = new Set<string>();
  let redactors: Redactor[] = [];
  const redact = (text: string) => redactors.reduce((current, next) => next(current), text);
  let forwardedSoFar = () => 0;
  const textReport = () => {
    const results = verdicts.verdicts();
    const count = (status: CheckResult['status']) =>
      results.filter((result) => result.status === status).length;
    return [
      ...results.map((result) => formatResult(result)),
      `${toolName} proxy: ${forwardedSoFar()} requests forwarded, ${verdicts.judged} exchanges judged; ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} not exercised`,
    ].join('\n');
  };
  const proxy = await startProxy({
    target: flags.target,
    port: flags.port,
    host: flags.host,
    maxBodyBytes: flags.maxBodyBytes,
    onExchange: (exchange, keyId) => verdicts.see(exchange, keyId),
    onKey(key) {
      // Every key seen is redacted from every report; a bounded number is remembered.
      if (keys.has(key) || keys.size >= 1_000) return;
      keys.add(key);
      redactors = [...redactors, createRedactor(key)];
    },
    report: (format) =>
      format === 'json'
        ? jsonReport(flags.target, proxy.forwarded, verdicts.judged, verdicts.verdicts())
        : textReport(),
    redact,
  });
  forwardedSoFar = () => proxy.forwarded;
  const origin = new URL(proxy.baseUrl).origin;
  io.out(
    `${toolName} proxy: ${proxy.baseUrl} -> ${flags.target} (verdicts: ${origin}/__contract/report; stop with Ctrl-C)`,
  );
  await io.stopped;
  await proxy.close();
  const results = verdicts.verdicts();
  io.out(redact(textReport()));
  if (flags.junit !== undefined) {
    const suite: SuiteResult = {
      target: `proxy in front of ${flags.target}`,
      baseUrl: flags.target,
      seed: 0,
      runs: 0,
      runPrefix: '',
      writes: false,
      results,
      budget: { limit: 0, source: 'the proxy sends no request of its own' },
      requests: 0,
      keyRequests: 0,
      answered429: 0,
      waitedMs: 0,
      virtualTime: false,
      durationMs: 0,
    };
    try {
      writeFileSync(flags.junit, redact(toJunit(suite, false, false)));
    } catch (error) {
      io.err(
        `${toolName}: cannot write the --junit file ${flags.junit}: ${(error as Error).message}`,
      );
      return 2;
    }
  }
  return results.some((result) => result.status === 'fail') ? 1 : 0;
}
