/**
 * The request journal's cost per request, on the fake as `npm start` runs it (the bundle, with
 * its Node flags): the same bundle twice, the journal on (its default, 1000 entries) and off
 * (`--journal-entries 0`), each request run on both in interleaved rounds at the bench's
 * connections. The server's CPU time per request is the steady figure; the difference between
 * the two is what journalling a request costs (its record, its body kept, its eviction once full:
 * the warm-up fills the journal, so every measured request also lets the oldest one go).
 */
import { runLoad } from './load.ts';
import type { BenchOptions } from './options.ts';
import { BenchError, freePort, type RunningServer, startServer } from './processes.ts';
import { benchHeaders, benchRequests } from './requests.ts';
import { baseUrl, fakeSpec } from './servers.ts';
import { median } from './stats.ts';

/** One request's figures with the journal on and off (medians across rounds). */
export interface JournalCostRow {
  readonly label: string;
  readonly onRps: number;
  readonly offRps: number;
  readonly onCpuUs: number;
  readonly offCpuUs: number;
}

/** What the section measured. */
export interface JournalCostResult {
  readonly rows: readonly JournalCostRow[];
  readonly rounds: number;
  readonly seconds: number;
}

/** The two requests that show the journal's two costs: a GET's record, a create's body kept. */
const measured = benchRequests.filter(
  (request) => request.id === 'list' || request.id === 'create',
);

/** Runs the journal section. */
export async function measureJournalCost(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<JournalCostResult> {
  const ports = { on: await freePort(), off: await freePort() };
  const on = await startServer(fakeSpec(ports.on));
  let off: RunningServer | undefined;
  try {
    off = await startServer(fakeSpec(ports.off, ['--journal-entries', '0']));
    const samples = new Map<
      string,
      { on: number[]; off: number[]; onCpu: number[]; offCpu: number[] }
    >();
    const run = async (
      which: 'on' | 'off',
      request: (typeof measured)[number],
      seconds: number,
    ) => {
      const server = which === 'on' ? on : (off as RunningServer);
      const result = await runLoad({
        url: `${baseUrl('fake', ports[which])}${request.path}`,
        method: request.method,
        headers: { ...benchHeaders },
        ...(request.body === undefined ? {} : { body: request.body }),
        connections: options.connections,
        durationSeconds: seconds,
        serverPid: server.pid,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new BenchError(
          `journal: ${request.label} with the journal ${which} answered ${result.non2xx} non-2xx and ${result.errors} errors`,
        );
      return result;
    };
    // The warm-up also fills the journal that is on, so the rounds measure it full.
    for (const request of measured)
      for (const which of ['on', 'off'] as const) await run(which, request, options.warmupSeconds);
    const rounds = Math.max(1, options.rounds);
    for (let round = 1; round <= rounds; round++) {
      for (const request of measured) {
        // Alternate which goes first, so a noisy moment hurts both alike.
        const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        const got: Partial<Record<'on' | 'off', Awaited<ReturnType<typeof run>>>> = {};
        for (const which of order) got[which] = await run(which, request, options.durationSeconds);
        const kept = samples.get(request.label) ?? { on: [], off: [], onCpu: [], offCpu: [] };
        kept.on.push(got.on?.requestsPerSecond ?? Number.NaN);
        kept.off.push(got.off?.requestsPerSecond ?? Number.NaN);
        kept.onCpu.push(got.on?.serverCpuUsPerRequest ?? Number.NaN);
        kept.offCpu.push(got.off?.serverCpuUsPerRequest ?? Number.NaN);
        samples.set(request.label, kept);
        log(
          `journal round ${round}/${rounds}  ${request.label}  on ${got.on?.requestsPerSecond.toFixed(0)} req/s ${got.on?.serverCpuUsPerRequest?.toFixed(1)} µs CPU   off ${got.off?.requestsPerSecond.toFixed(0)} req/s ${got.off?.serverCpuUsPerRequest?.toFixed(1)} µs CPU`,
        );
      }
    }
    const rows = measured.map((request) => {
      const kept = samples.get(request.label) ?? { on: [], off: [], onCpu: [], offCpu: [] };
      return {
        label: request.label,
        onRps: median(kept.on),
        offRps: median(kept.off),
        onCpuUs: median(kept.onCpu),
        offCpuUs: median(kept.offCpu),
      };
    });
    return { rows, rounds, seconds: options.durationSeconds };
  } finally {
    await off?.stop();
    await on.stop();
  }
}
