/**
 * Where the fake's CPU goes, per side-by-side request, stage by stage: the fake runs as `npm start`
 * runs it (the bundle, every recorder on) with V8's sampling profiler, in a pass of its own after
 * the timed rounds so they are not slowed. For each request it warms the fake up, loads it at the
 * side-by-side section's connections, and splits the samples taken during that load by stage
 * (stage-attribution.ts). The µs of a stage are its share of the samples that did work times the
 * fake's CPU per request measured by /proc over the same load: the profiler's own overhead is in
 * that total, so read the stages as shares of one request, and compare totals in the timed table.
 *
 * V8 samples on wall-clock time: while the fake waits for a core the load generator holds, the
 * sample lands on whatever ran last (often the socket write). On this 2-core machine that inflates
 * Node's http row a little; it does not move the fake's own rows against each other.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBundlePath } from '../scripts/build-server.ts';
import { benchLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import { freePort, startServer } from './processes.ts';
import { type BenchRequest, benchRequests, createRequest } from './requests.ts';
import { baseUrl, profiledFakeSpec, profileIntervalUs, projectRoot } from './servers.ts';
import { bundleStages, type CpuProfile, timePerStage } from './stage-attribution.ts';

/** One stage's part of a request. */
export interface StageCost {
  readonly stage: string;
  /** CPU per request in this stage, µs. */
  readonly us: number;
  /** Share of the fake's working samples. */
  readonly share: number;
}

/** One request's breakdown. */
export interface StageBreakdown {
  readonly request: BenchRequest;
  /** CPU per request of the fake over the profiled load (/proc), µs. */
  readonly cpuUsPerRequest: number | undefined;
  readonly requests: number;
  /** Samples that did work, during the load. */
  readonly samples: number;
  /** Largest first. */
  readonly stages: readonly StageCost[];
}

/** The stage pass of one bench run. */
export interface StagesResult {
  readonly intervalUs: number;
  readonly seconds: number;
  readonly connections: number;
  readonly breakdowns: readonly StageBreakdown[];
}

/** Preloaded into the profiled fake so JSON in and out gets frames of its own (json-frames.ts). */
const jsonFrames = fileURLToPath(new URL('./json-frames.ts', import.meta.url));

/** Profiles the fake on each side-by-side request and splits its CPU per request by stage. */
export async function measureStages(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<StagesResult> {
  const seconds = Math.max(2, options.durationSeconds);
  const stageOf = bundleStages(
    serverBundlePath,
    readFileSync(`${serverBundlePath}.map`, 'utf8'),
    projectRoot,
  );
  const breakdowns: StageBreakdown[] = [];
  for (const request of benchRequests) {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-stages-'));
    try {
      const port = await freePort();
      const server = await startServer(profiledFakeSpec(port, dir, [jsonFrames]));
      const load = benchLoad(baseUrl('fake', port), server.pid, options.connections);
      let from = 0;
      let to = 0;
      let result: Awaited<ReturnType<typeof load>>;
      try {
        // The side-by-side section's warm-up: creates fill the sold page, then the request
        // itself runs until the optimising compiler has seen it.
        await load(createRequest, { amount: 100 });
        await load(request, { durationSeconds: Math.min(2, options.warmupSeconds) });
        from = Number(process.hrtime.bigint() / 1000n);
        result = await load(request, { durationSeconds: seconds });
        to = Number(process.hrtime.bigint() / 1000n);
      } finally {
        await server.stop();
      }
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (file === undefined) throw new Error(`bench: the fake wrote no CPU profile in ${dir}`);
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      const spent = timePerStage(profile, stageOf, from, to);
      const total = [...spent.values()].reduce((sum, value) => sum + value, 0);
      const perRequest = result.serverCpuUsPerRequest;
      const stages = [...spent.entries()]
        .map(([stage, time]) => {
          const share = total === 0 ? 0 : time / total;
          return { stage, share, us: perRequest === undefined ? Number.NaN : share * perRequest };
        })
        .sort((a, b) => b.share - a.share);
      const samples = Math.round(total / profileIntervalUs);
      breakdowns.push({
        request,
        cpuUsPerRequest: perRequest,
        requests: result.requests,
        samples,
        stages,
      });
      const top = stages
        .slice(0, 4)
        .map(({ stage, share }) => `${stage} ${(share * 100).toFixed(0)}%`)
        .join(', ');
      log(
        `${request.label}: ${perRequest?.toFixed(0) ?? 'n/a'} µs CPU/req profiled, ${samples} samples; ${top}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { intervalUs: profileIntervalUs, seconds, connections: options.connections, breakdowns };
}
