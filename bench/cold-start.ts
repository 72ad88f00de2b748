/**
 * Cold start: from spawning the process to its first 200 on `GET /pets?limit=20`, polled every
 * 5 ms. The fake runs as the README starts it (`node mock/server/cli.ts --port <n>`), Prism as
 * `prism mock openapi/petstore.yaml`; runs alternate between them; medians.
 */
import type { BenchOptions } from './options.ts';
import { freePort, startServer } from './processes.ts';
import { fakeDefaultSpec, prismSpec } from './servers.ts';
import { median } from './stats.ts';

/** Spawn-to-first-200 times, ms. */
export interface ColdStartResult {
  readonly fakeMs: readonly number[];
  readonly prismMs: readonly number[];
  readonly fakeMedianMs: number;
  readonly prismMedianMs: number;
}

/** Runs the cold-start section. */
export async function measureColdStart(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<ColdStartResult> {
  const fakeMs: number[] = [];
  const prismMs: number[] = [];
  for (let run = 0; run < options.coldStartRuns; run++) {
    for (const which of run % 2 === 0 ? ['fake', 'prism'] : ['prism', 'fake']) {
      const port = await freePort(true);
      const server = await startServer(
        which === 'fake' ? fakeDefaultSpec(port) : prismSpec(port, false),
      );
      await server.stop();
      (which === 'fake' ? fakeMs : prismMs).push(server.readyMs);
      log(
        `cold start ${run + 1}/${options.coldStartRuns}  ${which.padEnd(5)} ${server.readyMs.toFixed(0)} ms`,
      );
    }
  }
  return { fakeMs, prismMs, fakeMedianMs: median(fakeMs), prismMedianMs: median(prismMs) };
}
