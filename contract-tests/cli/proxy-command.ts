/**
 * `petstore-contract proxy --target <url>`: conformance from real traffic. Forwards every
 * request to the target and judges each exchange with the harness's observers and the judges of
 * its active checks (passive-verdicts.ts). Given a command
 * after `--`, it runs it with PETSTORE_PROXY_URL set and stops when it ends; otherwise it runs
 * until SIGINT, SIGTERM or its parent goes away. Then it prints the verdicts (and writes
 * `--junit`): exit 0 when no rule was seen broken, 1 when one was, 2 when it judged nothing or
 * the target could not be reached. It sends no request of its own, so it costs the key nothing.
 */

import type { Secret } from '../../mock/internal/entry.ts';
import { listenProblem, writeOutputFile } from '../../mock/internal/entry.ts';
import { ContractUsageError, toolName } from '../base/usage-error.ts';
import { toCurl } from '../http/curl.ts';
import { keyPlaceholder } from '../http/exchange.ts';
import { createPassiveVerdicts } from '../proxy/passive-verdicts.ts';
import { startProxy } from '../proxy/proxy-server.ts';
import { findingsLine, formatResults } from '../report/console-report.ts';
import { coverageLine, createProxyCoverage, writeCoverage } from '../report/coverage.ts';
import { findingsOf, rulesOf } from '../report/findings.ts';
import { toJunit } from '../report/junit.ts';
import { createRedactor, envSecrets } from '../report/redact.ts';
import type { CheckResult, SuiteResult } from '../runner/results.ts';
import { isLoopbackHost } from '../targets/url-target.ts';
import { checkOutputPath } from './flag-values.ts';
import { parseProxyFlags, proxyUsage } from './proxy-flags.ts';
import { runThroughProxy } from './run-through-proxy.ts';
import type { StopReason } from './stop-signals.ts';

/** Where the proxy writes, and what stops it. */
export interface ProxyIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Resolves when the proxy should stop (SIGINT, SIGTERM, its parent gone). */
  readonly stopped: Promise<StopReason>;
  /** The environment a command after `--` runs with (plus PETSTORE_PROXY_URL). */
  readonly env: NodeJS.ProcessEnv;
  /** How the user invoked the CLI (`npm run contract --`, `petstore-contract`), for help. */
  readonly command: string;
}

function jsonReport(target: string, forwarded: number, judged: number, results: CheckResult[]) {
  return JSON.stringify(
    {
      target,
      forwarded,
      judged,
      // The things to fix: one per answer, listing every rule it breaks (report/findings.ts).
      findings: findingsOf(results).map((finding) => ({
        rules: rulesOf(finding).map((result) => result.id),
        failure: finding.lead.failure?.message,
        ...(finding.lead.failure?.exchange === undefined
          ? {}
          : { reproduce: toCurl(finding.lead.failure.exchange) }),
      })),
      results: results.map((result) => ({
        id: result.id,
        status: result.status,
        ...(result.skip === undefined ? {} : { skip: result.skip, reason: result.reason }),
        ...(result.failure === undefined
          ? {}
          : {
              failure: result.failure.message,
              rule: result.source,
              // Exchanges that broke the rule; the failure and curl line are the first's.
              occurrences: result.failure.occurrences ?? 1,
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

/**
 * What the proxy learns from the traffic it forwards: the verdicts and coverage of each exchange,
 * the keys it saw (redacted from every report) and the requests it could not forward.
 */
class ProxyWatch {
  readonly verdicts: ReturnType<typeof createPassiveVerdicts>;
  readonly coverage = createProxyCoverage();
  readonly #keys = new Set<string>();
  /** Requests the target could not be reached for, by reason (ECONNREFUSED...). */
  readonly unreachable = new Map<string, number>();
  // The environment's secrets, then every key learnt from the traffic; a new array for each key
  // learnt: the redaction works the forms out again only then.
  #secrets: readonly Secret[];
  readonly redact: ReturnType<typeof createRedactor>;

  constructor(plan: Parameters<typeof createPassiveVerdicts>[0], env: NodeJS.ProcessEnv) {
    this.verdicts = createPassiveVerdicts(plan);
    this.#secrets = envSecrets(env);
    this.redact = createRedactor(() => this.#secrets);
  }

  /** Counts a request the target could not be reached for (reasons are error codes, few). */
  noteUnreachable(reason: string): void {
    if (this.unreachable.has(reason) || this.unreachable.size < 20)
      this.unreachable.set(reason, (this.unreachable.get(reason) ?? 0) + 1);
  }

  /** Every key seen is redacted from every report; a bounded number is remembered. */
  noteKey(key: string): void {
    if (this.#keys.has(key) || this.#keys.size >= 1_000) return;
    this.#keys.add(key);
    this.#secrets = [...this.#secrets, { value: key, shownAs: keyPlaceholder }];
  }

  /** The verdicts; with nothing judged, a check that passes on no evidence is no pass at all. */
  judgedVerdicts(): CheckResult[] {
    const { verdicts } = this;
    return verdicts.judged > 0
      ? verdicts.verdicts()
      : verdicts.verdicts().map((result) => ({
          ...result,
          status: 'skip',
          skip: 'not-exercised',
          reason: 'no exchange went through the proxy',
        }));
  }

  /** The verdicts as text, with the counts line. */
  textReport(forwarded: number): string {
    const results = this.judgedVerdicts();
    const count = (status: CheckResult['status']) =>
      results.filter((result) => result.status === status).length;
    return [
      ...formatResults(results),
      `${toolName} proxy: ${forwarded} requests forwarded, ${this.verdicts.judged} exchanges judged; ${findingsLine(results)}; rules: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('skip')} not exercised`,
    ].join('\n');
  }
}

type ProxyFlags = ReturnType<typeof parseProxyFlags>;
type RunningProxy = Awaited<ReturnType<typeof startProxy>>;

/** Starts the proxy with the watch on its traffic; a port it cannot listen on is a usage error. */
async function listenProxy(flags: ProxyFlags, watch: ProxyWatch): Promise<RunningProxy> {
  let forwarded = () => 0;
  try {
    const proxy = await startProxy({
      target: flags.target,
      port: flags.port,
      host: flags.host,
      allowedHosts: flags.allowedHosts,
      maxBodyBytes: flags.maxBodyBytes,
      onUnreachable: (reason) => watch.noteUnreachable(reason),
      onExchange: (exchange, keyId) => {
        watch.verdicts.see(exchange, keyId);
        watch.coverage.see(exchange, keyId);
      },
      onKey: (key) => watch.noteKey(key),
      report: (format) =>
        format === 'json'
          ? jsonReport(flags.target, forwarded(), watch.verdicts.judged, watch.judgedVerdicts())
          : watch.textReport(forwarded()),
      redact: watch.redact,
    });
    forwarded = () => proxy.forwarded;
    return proxy;
  } catch (error) {
    const problem = listenProblem(error, {
      flag: '--port',
      port: flags.port,
      host: flags.host,
      zeroPicksFree: true,
    });
    if (problem === undefined) throw error;
    throw new ContractUsageError(`proxy: ${problem}`);
  }
}

/**
 * Says where the proxy listens, then waits for its end: the command's, or `io.stopped`.
 * Resolves to the command's exit code (0 without one, or when it was stopped first).
 */
async function proxyUntilEnd(flags: ProxyFlags, proxy: RunningProxy, io: ProxyIo): Promise<number> {
  const origin = new URL(proxy.baseUrl).origin;
  if (!isLoopbackHost(flags.host))
    io.err(
      `${toolName} proxy: warning: listening on ${flags.host}, reachable beyond this machine: anyone who reaches it sends requests to ${flags.target} through it, with their keys or none. Only Host names ${flags.allowedHosts.join(', ')} are answered (add yours with --allowed-hosts).`,
    );
  io.out(
    `${toolName} proxy: ${proxy.baseUrl} -> ${flags.target} (verdicts: ${origin}/__contract/report; ${flags.command === undefined ? 'stop with Ctrl-C' : `running ${flags.command[0]}`})`,
  );
  if (flags.command === undefined) {
    const reason = await io.stopped;
    if (reason === 'parent gone')
      io.err(`${toolName} proxy: its parent process went away; stopping`);
    return 0;
  }
  const ended = await runThroughProxy(flags.command, proxy.baseUrl, io);
  if (!('stoppedBy' in ended)) return ended.code;
  io.err(`${toolName} proxy: stopped (${ended.stoppedBy}) before ${flags.command[0]} ended`);
  return 0;
}

/** Writes `--junit` and `--coverage`; the problem, when one could not be written. */
function writeProxyFiles(
  flags: ProxyFlags,
  watch: ProxyWatch,
  results: CheckResult[],
  run: { readonly forwarded: number; readonly durationMs: number },
  io: ProxyIo,
): string | undefined {
  if (flags.junit !== undefined) {
    const problem = writeProxyJunit(flags.junit, {
      target: flags.target,
      results,
      forwarded: run.forwarded,
      judged: watch.verdicts.judged,
      unreachable: [...watch.unreachable.values()].reduce((sum, count) => sum + count, 0),
      durationMs: run.durationMs,
      redact: watch.redact,
    });
    if (problem !== undefined) return problem;
  }
  if (flags.coverage !== undefined) {
    const record = watch.coverage.record();
    const problem = writeCoverage(flags.coverage, record, watch.redact);
    if (problem !== undefined) return `${toolName}: ${problem}`;
    io.out(`${toolName} proxy: ${coverageLine(record, flags.coverage)}`);
  }
  return undefined;
}

/** Runs the proxy until `io.stopped` or the command ends; resolves to the exit code. */
export async function runProxyCommand(argv: readonly string[], io: ProxyIo): Promise<number> {
  const started = performance.now();
  const flags = parseProxyFlags(argv);
  if (flags.help) {
    io.out(proxyUsage(io.command));
    return 0;
  }
  // Checked before listening: a typo is reported now, not after the whole suite went through.
  checkOutputPath('--junit', flags.junit);
  checkOutputPath('--coverage', flags.coverage);
  const watch = new ProxyWatch(flags.plan, io.env);
  const proxy = await listenProxy(flags, watch);
  const commandCode = await proxyUntilEnd(flags, proxy, io);
  await proxy.close();
  const results = watch.judgedVerdicts();
  io.out(watch.redact(watch.textReport(proxy.forwarded)));
  const run = { forwarded: proxy.forwarded, durationMs: performance.now() - started };
  const problem = writeProxyFiles(flags, watch, results, run, io);
  if (problem !== undefined) {
    io.err(problem);
    return commandCode !== 0 ? commandCode : 2;
  }
  const verdict = proxyVerdict(results, watch.verdicts.judged, watch.unreachable, io);
  if (commandCode !== 0) {
    io.err(`${toolName} proxy: ${flags.command?.[0]} exited ${commandCode}; exiting with its code`);
    return commandCode;
  }
  return verdict;
}

/** What the proxy did, for its JUnit file: not an active run's fields (no seed, nothing sent). */
interface ProxyRun {
  readonly target: string;
  readonly results: CheckResult[];
  readonly forwarded: number;
  readonly judged: number;
  readonly unreachable: number;
  readonly durationMs: number;
  readonly redact: (text: string) => string;
}

/** Writes the proxy's `--junit` file whole; the problem, when it could not. */
function writeProxyJunit(path: string, run: ProxyRun): string | undefined {
  const properties = { forwarded: run.forwarded, judged: run.judged, unreachable: run.unreachable };
  const suite: SuiteResult = {
    target: `proxy in front of ${run.target}`,
    baseUrl: run.target,
    seed: 0,
    runs: 0,
    runPrefix: '',
    writes: false,
    results: run.results,
    budget: { limit: 0, source: 'the proxy sends no request of its own' },
    requests: 0,
    keyRequests: 0,
    answered429: 0,
    waitedMs: 0,
    virtualTime: false,
    durationMs: run.durationMs,
  };
  try {
    writeOutputFile(path, run.redact(toJunit(suite, false, undefined, properties)));
    return undefined;
  } catch (error) {
    return `${toolName}: cannot write the --junit file ${path}: ${(error as Error).message}`;
  }
}

/**
 * The proxy's exit code: 1 a rule seen broken, 2 the target could not be reached for some
 * requests or nothing was judged (no evidence), else 0.
 */
function proxyVerdict(
  results: readonly CheckResult[],
  judged: number,
  unreachable: ReadonlyMap<string, number>,
  io: ProxyIo,
): number {
  if (results.some((result) => result.status === 'fail')) {
    io.out(
      `${toolName} proxy: the server breaks the interface: ${findingsLine(results)} (see FAIL lines above)`,
    );
    return 1;
  }
  if (unreachable.size > 0) {
    const reasons = [...unreachable].map(([reason, count]) => `${count} x ${reason}`).join(', ');
    io.err(
      `${toolName} proxy: no verdict: the target could not be reached for some requests (${reasons}); nothing is known of how it would have answered them`,
    );
    return 2;
  }
  if (judged === 0) {
    io.err(
      `${toolName} proxy: no evidence, no verdict: no exchange under the target's base path went through the proxy; point the client at the proxy's base URL (PETSTORE_PROXY_URL with a command)`,
    );
    return 2;
  }
  io.out(
    `${toolName} proxy: no rule seen broken in ${judged} exchange${judged === 1 ? '' : 's'} (checks not exercised by the traffic are not passes)`,
  );
  return 0;
}
