/**
 * Side by side over HTTP: the fake, Prism (default logging and `-v silent`) and the bare ceiling
 * answer the same requests in interleaved rounds (every round runs every request on every
 * server, in a rotating order), so a noisy moment hurts all of them alike; medians across rounds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CannedResponse } from './ceiling-server.ts';
import { type LoadResult, runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import { BenchError, freePort, type RunningServer, startServer } from './processes.ts';
import { type BenchRequest, benchHeaders, benchRequests } from './requests.ts';
import {
  baseUrl,
  ceilingSpec,
  fakeSpec,
  prismSpec,
  type TargetId,
  targetLabels,
} from './servers.ts';
import { median, spread } from './stats.ts';

/** The medians of one request on one server. */
export interface Cell {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
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
}

const order: readonly TargetId[] = ['fake', 'prism-silent', 'prism-default', 'ceiling'];

function summarise(runs: readonly LoadResult[], expected: number): Cell {
  const cpu = runs.map((run) => run.serverCpuUsPerRequest);
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
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

async function capture(base: string, request: BenchRequest): Promise<CannedResponse> {
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
  return { status: response.status, body };
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
  const running = (target: TargetId) => {
    const entry = servers.get(target);
    if (entry === undefined) throw new BenchError(`${target} is not running`);
    return entry;
  };
  try {
    const fakePort = await freePort();
    servers.set('fake', { server: await startServer(fakeSpec(fakePort)), port: fakePort });
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
    const ceilingPort = await freePort();
    servers.set('ceiling', {
      server: await startServer(ceilingSpec(ceilingPort, bodiesFile, '/pets?limit=20')),
      port: ceilingPort,
    });
    for (const [target, silent] of [
      ['prism-silent', true],
      ['prism-default', false],
    ] as const) {
      const port = await freePort();
      servers.set(target, { server: await startServer(prismSpec(port, silent)), port });
    }
    const prismBodyBytes: Record<string, number> = {};
    const prismSilent = running('prism-silent');
    for (const request of benchRequests) {
      const answer = await capture(baseUrl('prism-silent', prismSilent.port), request);
      prismBodyBytes[request.id] = Buffer.byteLength(answer.body);
    }
    for (const target of order.filter((id) => id !== 'fake')) {
      const { server, port } = running(target);
      for (const request of benchRequests)
        await load(target, server, port, request, options, options.warmupSeconds);
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
            `round ${round + 1}/${options.rounds}  ${request.label.padEnd(36)} ${targetLabels[target].padEnd(24)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms${result.serverCpuUsPerRequest === undefined ? '' : `  ${result.serverCpuUsPerRequest.toFixed(0)} µs CPU/req`}`,
          );
        }
      }
    }
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
    };
  } finally {
    await Promise.all([...servers.values()].map(({ server }) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
