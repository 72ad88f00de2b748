/**
 * Scale: does latency stay flat as the store grows? One fake per store size (started with
 * `--seed` of that many pets) answers list, filtered list and get in interleaved rounds, over
 * one connection so the figure is the service time, not a queue. Then a fresh fake takes
 * `creates` POSTs over HTTP: creates per second, and its resident memory afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import {
  BenchError,
  freePort,
  type RunningServer,
  residentBytes,
  startServer,
} from './processes.ts';
import { benchHeaders, createRequest } from './requests.ts';
import { measureRetainedHeap, type RetainedHeap } from './retained-heap.ts';
import { baseUrl, fakeSpec } from './servers.ts';
import { median } from './stats.ts';

/** What is measured at each size. */
export const scaleProbes = [
  { id: 'list', label: 'GET /v1/pets?limit=20' },
  { id: 'list-sold', label: 'GET /v1/pets?status=sold&limit=100' },
  { id: 'get', label: 'GET /v1/pets/{id}, ids spread over the store' },
] as const;

/** One probe at one size: medians across rounds. */
export interface ScalePoint {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requestsPerSecond: number;
}

/** What the section measured. */
export interface ScaleResult {
  readonly sizes: readonly number[];
  /** points[probeId][size] */
  readonly points: Readonly<Record<string, Readonly<Record<number, ScalePoint>>>>;
  /** Spawn to first 200 of the fake seeded with each size, ms. */
  readonly startMs: Readonly<Record<number, number>>;
  /** Resident memory of each seeded fake after its rounds, bytes. */
  readonly seededRssBytes: Readonly<Record<number, number | undefined>>;
  readonly creates: number;
  readonly createConnections: number;
  readonly createsPerSecond: number;
  readonly createP99Ms: number;
  readonly rssBeforeCreatesBytes: number | undefined;
  readonly rssAfterCreatesBytes: number | undefined;
  /** Heap the store keeps per pet, measured in process after a full GC. */
  readonly retained: RetainedHeap;
  readonly rounds: number;
}

/** Two pets in three are sold, so even 150 pets fill a `status=sold&limit=100` page. */
const statuses = ['sold', 'available', 'sold', 'pending', 'sold', 'sold'] as const;

/** A seed of `count` pets, ids 1..count. */
function seedFile(dir: string, count: number): string {
  const pets = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    name: `Scale pet ${index + 1}`,
    categoryId: 1 + (index % 6),
    status: statuses[index % statuses.length],
  }));
  const file = join(dir, `seed-${count}.json`);
  writeFileSync(file, JSON.stringify(pets));
  return file;
}

/** Runs the scale section. */
export async function measureScale(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const fakes = new Map<number, { server: RunningServer; port: number }>();
  try {
    for (const size of options.scaleSizes) {
      const port = await freePort();
      const server = await startServer(fakeSpec(port, ['--seed', seedFile(dir, size)]));
      fakes.set(size, { server, port });
      log(`scale: fake with ${size} pets ready in ${server.readyMs.toFixed(0)} ms`);
    }
    const runs: Record<
      string,
      Record<number, { p50: number[]; p99: number[]; rps: number[] }>
    > = {};
    const rounds = Math.max(1, options.rounds);
    for (let round = 0; round <= rounds; round++) {
      // Round 0 warms every fake up and is not counted.
      for (const probe of scaleProbes) {
        for (const size of options.scaleSizes) {
          const fake = fakes.get(size);
          if (fake === undefined) throw new BenchError(`scale: no fake for ${size} pets`);
          const { server, port } = fake;
          const base = baseUrl('fake', port);
          const result = await runLoad({
            url: `${base}/pets`,
            headers: benchHeaders,
            connections: 1,
            durationSeconds: round === 0 ? options.warmupSeconds : options.scaleSeconds,
            serverPid: server.pid,
            path:
              probe.id === 'get'
                ? (n) => `/v1/pets/${1 + ((n * 7_919) % size)}`
                : probe.id === 'list'
                  ? () => '/v1/pets?limit=20'
                  : () => '/v1/pets?status=sold&limit=100',
          });
          if (result.non2xx > 0 || result.errors > 0)
            throw new BenchError(
              `scale: ${probe.label} at ${size} pets: ${result.non2xx} non-2xx answers, ${result.errors} errors (${JSON.stringify(result.statuses)})`,
            );
          if (round === 0) continue;
          const bySize = runs[probe.id] ?? {};
          runs[probe.id] = bySize;
          const cell = bySize[size] ?? { p50: [], p99: [], rps: [] };
          bySize[size] = cell;
          cell.p50.push(result.p50Ms);
          cell.p99.push(result.p99Ms);
          cell.rps.push(result.requestsPerSecond);
          log(
            `scale round ${round}/${rounds}  ${probe.label.padEnd(44)} ${String(size).padStart(6)} pets  p50 ${result.p50Ms.toFixed(3)} ms  p99 ${result.p99Ms.toFixed(3)} ms`,
          );
        }
      }
    }
    const points: Record<string, Record<number, ScalePoint>> = {};
    for (const [probe, bySize] of Object.entries(runs)) {
      points[probe] = {};
      for (const [size, cell] of Object.entries(bySize)) {
        points[probe][Number(size)] = {
          p50Ms: median(cell.p50),
          p99Ms: median(cell.p99),
          requestsPerSecond: median(cell.rps),
        };
      }
    }
    const startMs: Record<number, number> = {};
    const seededRssBytes: Record<number, number | undefined> = {};
    for (const [size, { server }] of fakes) {
      startMs[size] = server.readyMs;
      seededRssBytes[size] = residentBytes(server.pid);
    }
    await Promise.all([...fakes.values()].map(({ server }) => server.stop()));
    fakes.clear();

    const smallest = options.scaleSizes[0] ?? 150;
    const port = await freePort();
    const creator = await startServer(fakeSpec(port, ['--seed', seedFile(dir, smallest)]));
    fakes.set(0, { server: creator, port });
    const rssBefore = residentBytes(creator.pid);
    const created = await runLoad({
      url: `${baseUrl('fake', port)}${createRequest.path}`,
      method: 'POST',
      headers: benchHeaders,
      body: createRequest.body,
      connections: options.connections,
      amount: options.creates,
    });
    if ((created.statuses['201'] ?? 0) !== options.creates)
      throw new BenchError(
        `scale: ${options.creates} creates answered ${JSON.stringify(created.statuses)}`,
      );
    const rssAfter = residentBytes(creator.pid);
    const retained = await measureRetainedHeap(Math.min(options.creates, 20_000));
    log(
      `scale: ${options.creates} creates at ${created.requestsPerSecond.toFixed(0)}/s, RSS ${((rssBefore ?? 0) / 2 ** 20).toFixed(0)} → ${((rssAfter ?? 0) / 2 ** 20).toFixed(0)} MiB`,
    );
    return {
      sizes: options.scaleSizes,
      points,
      startMs,
      seededRssBytes,
      creates: options.creates,
      createConnections: options.connections,
      createsPerSecond: created.requestsPerSecond,
      createP99Ms: created.p99Ms,
      rssBeforeCreatesBytes: rssBefore,
      rssAfterCreatesBytes: rssAfter,
      retained,
      rounds,
    };
  } finally {
    await Promise.all([...fakes.values()].map(({ server }) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
