/**
 * Cold start: from spawning the process to its first 200 on `GET /pets?limit=20`, polled every
 * 5 ms. The fake runs as the README starts it (`node mock/server/cli.ts --port <n>`), Prism as
 * `prism mock openapi/petstore.yaml`; runs alternate between them; medians.
 *
 * Two more rows show what proposed changes to the CLI would buy (they are not `npm start` today,
 * and the target is judged on `npm start` only): Node's module compile cache (what
 * `module.enableCompileCache()` in cli.ts turns on), and the CLI bundled by esbuild, which also
 * drops the ~340 modules `es-toolkit/compat` (imported by @msw/data) costs to resolve and load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { BenchOptions } from './options.ts';
import { freePort, type ServerSpec, startServer } from './processes.ts';
import { fakeDefaultSpec, prismSpec, projectRoot } from './servers.ts';
import { median } from './stats.ts';

/** One way of starting a server, and its spawn-to-first-200 times (ms). */
export interface ColdStartRow {
  readonly id: 'fake' | 'prism' | 'fake-compile-cache' | 'fake-bundled';
  readonly label: string;
  readonly proposal: boolean;
  readonly runsMs: readonly number[];
  readonly medianMs: number;
}

/** What the section measured. */
export interface ColdStartResult {
  readonly rows: readonly ColdStartRow[];
  readonly fakeMedianMs: number;
  readonly prismMedianMs: number;
}

type Variant = Omit<ColdStartRow, 'runsMs' | 'medianMs'> & {
  readonly spec: (port: number) => ServerSpec;
};

async function bundleCli(dir: string): Promise<string> {
  const outfile = join(dir, 'cli.mjs');
  await build({
    entryPoints: [join(projectRoot, 'mock/server/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outfile,
    logLevel: 'silent',
    // Some CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** Runs the cold-start section. */
export async function measureColdStart(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ColdStartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  try {
    const bundle = await bundleCli(dir);
    const cacheDir = join(dir, 'compile-cache');
    const variants: Variant[] = [
      {
        id: 'fake',
        label: 'fake: `node mock/server/cli.ts --port <n>`',
        proposal: false,
        spec: fakeDefaultSpec,
      },
      {
        id: 'prism',
        label: 'Prism: `prism mock openapi/petstore.yaml`',
        proposal: false,
        spec: (port) => prismSpec(port, false),
      },
      {
        id: 'fake-compile-cache',
        label: 'proposal: the same CLI with the module compile cache on (warm)',
        proposal: true,
        spec: (port) => ({ ...fakeDefaultSpec(port), env: { NODE_COMPILE_CACHE: cacheDir } }),
      },
      {
        id: 'fake-bundled',
        label: 'proposal: the same CLI bundled by esbuild',
        proposal: true,
        spec: (port) => ({ ...fakeDefaultSpec(port), script: bundle }),
      },
    ];
    // Fills the compile cache, as any earlier `npm start` on the machine would have.
    const warm = await startServer(variants[2]?.spec(await freePort(true)) as ServerSpec);
    await warm.stop();
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
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
