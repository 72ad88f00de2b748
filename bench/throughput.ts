/**
 * Side by side over HTTP: the fake, WireMock standalone (serving the fake's own answers as static
 * stubs, warmed up), Prism (default logging and `-v silent`) and the bare ceiling answer the same
 * requests in interleaved rounds (every round runs every request on every
 * server, in a rotating order), so a noisy moment hurts all of them alike; medians across rounds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CannedResponse } from './ceiling-server.ts';
import { type LoadResult, runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import {
  BenchError,
  freePort,
  type RunningServer,
  residentBytes,
  type ServerSpec,
  startServer,
} from './processes.ts';
import { type BenchRequest, benchHeaders, benchRequests } from './requests.ts';
import {
  baseUrl,
  ceilingSpec,
  fakeSpec,
  prismSpec,
  type TargetId,
  targetLabels,
  wiremockSpec,
  wiremockUnavailable,
} from './servers.ts';
import { median, spread } from './stats.ts';

/** The medians of one request on one server. */
export interface Cell {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Each round's p99, in the order the rounds ran: the spread behind the median. */
  readonly p99RoundsMs: readonly number[];
  /** The load generator's own collection pauses in each round, ms (see LoadResult). */
  readonly loadGeneratorGcRoundsMs: readonly number[];
  /** Server CPU per request, µs (undefined off Linux). */
  readonly cpuUsPerRequest: number | undefined;
  /** Lowest and highest req/s across rounds. */
  readonly rpsSpread: { min: number; max: number };
  /** Answers with another status than expected, summed over rounds. */
  readonly unexpected: number;
  readonly errors: number;
  readonly rounds: number;
}

/** What the section measured. */
export interface ThroughputResult {
  readonly targets: readonly TargetId[];
  readonly requests: readonly BenchRequest[];
  /** cells[requestId][targetId] */
  readonly cells: Readonly<Record<string, Readonly<Partial<Record<TargetId, Cell>>>>>;
  /** Body size of the fake's answer to each request (the ceiling sends the same bytes). */
  readonly bodyBytes: Readonly<Record<string, number>>;
  /** Body size of Prism's (static example) answer to each request. */
  readonly prismBodyBytes: Readonly<Record<string, number>>;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Why WireMock was left out, when it was. */
  readonly wiremockSkipped: string | undefined;
  /** Resident memory of each server once it first answered, and after the last round, bytes. */
  readonly residentAfterStart: Readonly<Partial<Record<TargetId, number>>>;
  readonly residentAfterLoad: Readonly<Partial<Record<TargetId, number>>>;
  /** Pets the fake holds after the rounds (its seed and every create), from its control surface. */
  readonly petsAfterLoad: number | undefined;
}

const allTargets: readonly TargetId[] = [
  'fake',
  'wiremock',
  'prism-silent',
  'prism-default',
  'ceiling',
];

/** WireMock stubs answering each request with exactly the fake's status, headers and body. */
function writeWiremockMappings(
  rootDir: string,
  answers: Readonly<Record<string, CannedResponse>>,
): void {
  const mappings = join(rootDir, 'mappings');
  mkdirSync(mappings, { recursive: true });
  for (const [index, [key, answer]] of Object.entries(answers).entries()) {
    const [method, url] = key.split(' ') as [string, string];
    const stub = {
      request: { method, url },
      response: { status: answer.status, headers: answer.headers, body: answer.body },
    };
    writeFileSync(join(mappings, `stub-${index}.json`), JSON.stringify(stub));
  }
}

function summarise(runs: readonly LoadResult[], expected: number): Cell {
  const cpu = runs.map((run) => run.serverCpuUsPerRequest);
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    p99RoundsMs: runs.map((run) => run.p99Ms),
    loadGeneratorGcRoundsMs: runs.map((run) => run.loadGeneratorGcMs),
    cpuUsPerRequest: cpu.every((value) => value !== undefined)
      ? median(cpu as number[])
      : undefined,
    rpsSpread: spread(runs.map((run) => run.requestsPerSecond)),
    unexpected: runs.reduce(
      (sum, run) => sum + run.requests - (run.statuses[String(expected)] ?? 0),
      0,
    ),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    rounds: runs.length,
  };
}

/** Headers an HTTP/1.1 stack writes for any answer: each server under test writes its own. */
const transportHeaders = new Set(['content-length', 'date', 'connection', 'keep-alive']);

/** A server's answer to a bench request as the ceiling replays it; an unexpected status throws. */
export async function capture(base: string, request: BenchRequest): Promise<CannedResponse> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: benchHeaders,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = await response.text();
  if (response.status !== request.status)
    throw new BenchError(
      `${request.label} answered ${response.status}, expected ${request.status}: ${body.slice(0, 300)}`,
    );
  // Every header the fake wrote; the ones each server's HTTP stack writes for itself left out.
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!transportHeaders.has(name)) headers[name] = value;
  });
  return { status: response.status, body, headers };
}

/** How many pets the fake holds (`GET /__control/state`, open on loopback), if it says. */
async function petCount(fakeBase: string): Promise<number | undefined> {
  try {
    const response = await fetch(new URL('/__control/state', fakeBase));
    const state = (await response.json()) as { pets?: unknown };
    return typeof state.pets === 'number' ? state.pets : undefined;
  } catch {
    return undefined;
  }
}

function load(
  target: TargetId,
  server: RunningServer,
  port: number,
  request: BenchRequest,
  options: BenchOptions,
  seconds: number,
): Promise<LoadResult> {
  return runLoad({
    url: `${baseUrl(target, port)}${request.path}`,
    method: request.method,
    headers: benchHeaders,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: options.connections,
    durationSeconds: seconds,
    serverPid: server.pid,
  });
}

/** Runs the side-by-side section; `log` receives one line per finished run. */
export async function measureThroughput(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const servers = new Map<TargetId, { server: RunningServer; port: number }>();
  const residentAfterStart: Partial<Record<TargetId, number>> = {};
  const residentAfterLoad: Partial<Record<TargetId, number>> = {};
  const start = async (target: TargetId, spec: (port: number) => ServerSpec) => {
    const port = await freePort();
    const server = await startServer(spec(port));
    servers.set(target, { server, port });
    const resident = residentBytes(server.pid);
    if (resident !== undefined) residentAfterStart[target] = resident;
  };
  const running = (target: TargetId) => {
    const entry = servers.get(target);
    if (entry === undefined) throw new BenchError(`${target} is not running`);
    return entry;
  };
  try {
    await start('fake', (port) => fakeSpec(port));
    const fakePort = running('fake').port;
    const fakeBase = baseUrl('fake', fakePort);
    // Warm the fake first: its creates fill the sold page, so the bodies captured next are final.
    for (const request of benchRequests) {
      await load('fake', running('fake').server, fakePort, request, options, options.warmupSeconds);
    }
    const canned: Record<string, CannedResponse> = {};
    const bodyBytes: Record<string, number> = {};
    for (const request of benchRequests) {
      const answer = await capture(fakeBase, request);
      canned[`${request.method} /v1${request.path}`] = answer;
      bodyBytes[request.id] = Buffer.byteLength(answer.body);
    }
    const bodiesFile = join(dir, 'ceiling-bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(canned));
    await start('ceiling', (port) => ceilingSpec(port, bodiesFile, '/pets?limit=20'));
    const wiremockSkipped = wiremockUnavailable();
    if (wiremockSkipped === undefined) {
      const rootDir = join(dir, 'wiremock');
      writeWiremockMappings(rootDir, canned);
      await start('wiremock', (port) => wiremockSpec(port, rootDir, '/pets?limit=20'));
    } else log(`WireMock left out: ${wiremockSkipped}`);
    await start('prism-silent', (port) => prismSpec(port, true));
    await start('prism-default', (port) => prismSpec(port, false));
    const order = allTargets.filter((target) => servers.has(target));
    const prismBodyBytes: Record<string, number> = {};
    const prismSilent = running('prism-silent');
    for (const request of benchRequests) {
      const answer = await capture(baseUrl('prism-silent', prismSilent.port), request);
      prismBodyBytes[request.id] = Buffer.byteLength(answer.body);
    }
    for (const target of order.filter((id) => id !== 'fake')) {
      const { server, port } = running(target);
      // The JVM compiles its hot paths only after many thousand requests: WireMock gets a long
      // warm-up, so it is measured at its best.
      const seconds =
        target === 'wiremock' ? Math.max(5, options.warmupSeconds * 5) : options.warmupSeconds;
      for (const request of benchRequests)
        await load(target, server, port, request, options, seconds);
    }

    const runs: Record<string, Partial<Record<TargetId, LoadResult[]>>> = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const request of benchRequests) {
        const rotated = order.map((_, i) => order[(i + round) % order.length] as TargetId);
        for (const target of rotated) {
          const { server, port } = running(target);
          const result = await load(
            target,
            server,
            port,
            request,
            options,
            options.durationSeconds,
          );
          const perRequest = runs[request.id] ?? {};
          runs[request.id] = perRequest;
          const targetRuns = perRequest[target] ?? [];
          perRequest[target] = targetRuns;
          targetRuns.push(result);
          log(
            `round ${round + 1}/${options.rounds}  ${request.label.padEnd(36)} ${targetLabels[target].padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms${result.serverCpuUsPerRequest === undefined ? '' : `  ${result.serverCpuUsPerRequest.toFixed(0)} µs CPU/req`}  load generator GC ${result.loadGeneratorGcMs.toFixed(0)} ms`,
          );
        }
      }
    }
    for (const [target, { server }] of servers) {
      const resident = residentBytes(server.pid);
      if (resident !== undefined) residentAfterLoad[target] = resident;
    }
    const petsAfterLoad = await petCount(fakeBase);
    log(
      `resident memory after the rounds: ${Object.entries(residentAfterLoad)
        .map(
          ([target, bytes]) =>
            `${targetLabels[target as TargetId]} ${(bytes / 2 ** 20).toFixed(0)} MiB`,
        )
        .join(', ')}; the fake holds ${petsAfterLoad ?? '?'} pets`,
    );
    const cells: Record<string, Partial<Record<TargetId, Cell>>> = {};
    for (const request of benchRequests) {
      const perRequest: Partial<Record<TargetId, Cell>> = {};
      for (const target of order) {
        const targetRuns = runs[request.id]?.[target];
        if (targetRuns !== undefined) perRequest[target] = summarise(targetRuns, request.status);
      }
      cells[request.id] = perRequest;
    }
    return {
      targets: order,
      requests: benchRequests,
      cells,
      bodyBytes,
      prismBodyBytes,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      wiremockSkipped,
      residentAfterStart,
      residentAfterLoad,
      petsAfterLoad,
    };
  } finally {
    await Promise.all([...servers.values()].map(({ server }) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
