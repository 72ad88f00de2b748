/**
 * Cold start: from spawning the process to its first 200 on `GET /pets?limit=20`, polled every
 * 5 ms. The fake runs as `npm start` runs it (`node node_modules/.cache/petstore-fake/server.mjs
 * --port <n>`, the bundle its prestart step builds), Prism as `prism mock openapi/petstore.yaml`;
 * runs rotate between them; medians.
 *
 * Two more rows put the bundle in context: the same CLI run from source (`node
 * mock/doors/cli/cli.ts`: ~600 modules, TypeScript stripped on load, what the bundle saves),
 * and the time `npm start`'s prestart step takes to check and, when a source
 * changed, rebuild the bundle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleIsFresh, bundleServer } from '../scripts/build-server.ts';
import type { BenchOptions } from './options.ts';
import { freePort, type ServerSpec, startServer } from './processes.ts';
import { fakeDefaultSpec, fakeSourceCli, prismSpec } from './servers.ts';
import { median } from './stats.ts';

/** One way of starting a server, and its spawn-to-first-200 times (ms). */
export interface ColdStartRow {
  readonly id: 'fake' | 'prism' | 'fake-source';
  readonly label: string;
  readonly runsMs: readonly number[];
  readonly medianMs: number;
}

/** What the section measured. */
export interface ColdStartResult {
  readonly rows: readonly ColdStartRow[];
  readonly fakeMedianMs: number;
  readonly prismMedianMs: number;
  /** Medians of `npm start`'s prestart step: a full rebuild, and a check that finds it fresh. */
  readonly buildMs: { readonly rebuild: number; readonly fresh: number };
}

type Variant = Omit<ColdStartRow, 'runsMs' | 'medianMs'> & {
  readonly spec: (port: number) => ServerSpec;
};

async function timeBuilds(runs: number): Promise<ColdStartResult['buildMs']> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const rebuild: number[] = [];
  const fresh: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const outfile = join(dir, `server-${run}.mjs`);
      let started = performance.now();
      await bundleServer(outfile);
      rebuild.push(performance.now() - started);
      started = performance.now();
      if (!bundleIsFresh(outfile)) throw new Error('a bundle just built is not fresh');
      fresh.push(performance.now() - started);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rebuild: median(rebuild), fresh: median(fresh) };
}

/** Runs the cold-start section. */
export async function measureColdStart(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ColdStartResult> {
  const variants: Variant[] = [
    {
      id: 'fake',
      label:
        "fake: `npm start`'s server, `node node_modules/.cache/petstore-fake/server.mjs --port <n>`",
      spec: fakeDefaultSpec,
    },
    {
      id: 'prism',
      label: 'Prism: `prism mock openapi/petstore.yaml`',
      spec: (port) => prismSpec(port, false),
    },
    {
      id: 'fake-source',
      label: 'for comparison: the same CLI from source, `node mock/doors/cli/cli.ts --port <n>`',
      spec: (port) => ({ ...fakeDefaultSpec(port), script: fakeSourceCli }),
    },
  ];
  const runs = new Map<Variant['id'], number[]>(variants.map((variant) => [variant.id, []]));
  for (let run = 0; run < options.coldStartRuns; run++) {
    const order = variants.map((_, i) => variants[(i + run) % variants.length] as Variant);
    for (const variant of order) {
      const server = await startServer(variant.spec(await freePort(true)));
      await server.stop();
      runs.get(variant.id)?.push(server.readyMs);
      log(
        `cold start ${run + 1}/${options.coldStartRuns}  ${variant.id.padEnd(18)} ${server.readyMs.toFixed(0)} ms`,
      );
    }
  }
  const rows = variants.map(({ spec: _spec, ...variant }) => {
    const runsMs = runs.get(variant.id) ?? [];
    return { ...variant, runsMs, medianMs: median(runsMs) };
  });
  return {
    rows,
    fakeMedianMs: rows.find((row) => row.id === 'fake')?.medianMs ?? Number.NaN,
    prismMedianMs: rows.find((row) => row.id === 'prism')?.medianMs ?? Number.NaN,
    buildMs: await timeBuilds(options.coldStartRuns),
  };
}
