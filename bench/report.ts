/**
 * bench/results.md: one run's numbers as dated markdown tables, the machine they came from, the
 * targets' verdicts, and the optimisation log (bench/optimisations.md) they were measured after.
 */
import type { BrowserResult } from './browser.ts';
import type { ColdStartResult } from './cold-start.ts';
import { fleetCeiling } from './fleet-ceiling.ts';
import type { HarnessResult } from './harness.ts';
import type { InProcessResult } from './in-process.ts';
import type { JournalCostResult } from './journal-cost.ts';
import { formatLoad, type Machine } from './machine.ts';
import type { BenchOptions } from './options.ts';
import type { ProxyOverheadResult } from './proxy-overhead.ts';
import { type ReplicasResult, replicaSampleRequests, replicaSetupLabels } from './replicas.ts';
import type { ScaleResult } from './scale.ts';
import { scaleProbes } from './scale.ts';
import { type TargetId, targetLabels } from './servers.ts';
import type { StagesResult } from './stages.ts';
import { ratio } from './stats.ts';
import { prismBest, type RunResults, type TargetCheck } from './targets.ts';
import type { ThroughputResult } from './throughput.ts';

/** Everything the report shows. */
export interface ReportInput extends RunResults {
  readonly startedAt: Date;
  readonly wallSeconds: number;
  readonly machine: Machine;
  readonly loadAfter: readonly number[];
  readonly options: BenchOptions;
  readonly inProcess?: InProcessResult | undefined;
  readonly journal?: JournalCostResult | undefined;
  readonly proxy?: ProxyOverheadResult | undefined;
  readonly stages?: StagesResult | undefined;
  readonly browser?: BrowserResult | undefined;
  readonly replicas?: ReplicasResult | undefined;
  readonly checks: readonly TargetCheck[];
  /** Every run of `--runs` in order, this one last: when, how busy, and its verdicts. */
  readonly runs: readonly RunSummary[];
  /** Sections that failed, with their error. */
  readonly failures: Readonly<Record<string, string>>;
  /** The optimisation log, markdown. */
  readonly optimisations: string;
}

/** One whole run of the bench, as the runs table shows it. */
export interface RunSummary {
  readonly startedAt: Date;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly wallSeconds: number;
  readonly checks: readonly TargetCheck[];
}

const n = (value: number | undefined, digits = 0) =>
  value === undefined || !Number.isFinite(value)
    ? 'n/a'
    : value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
const percent = (value: number) =>
  Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a';
const mib = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function machineSection(input: ReportInput): string[] {
  const { machine } = input;
  return [
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpuModel}, ${machine.cores} cores available |`,
    `| Memory | ${machine.memoryGiB.toFixed(1)} GiB |`,
    `| Node | ${machine.node} |`,
    `| OS | ${machine.os} |`,
    ...(input.runs.length > 1
      ? input.runs.map(
          (run, index) =>
            `| Run ${index + 1} of ${input.runs.length} | ${run.startedAt.toISOString().slice(11, 16)} UTC, ${run.wallSeconds.toFixed(0)} s; load average before ${formatLoad(run.loadBefore)}, after ${formatLoad(run.loadAfter)} |`,
        )
      : [
          `| Load average (1, 5, 15 min) before the run | ${formatLoad(machine.loadBefore)} |`,
          `| Load average after the run | ${formatLoad(input.loadAfter)} |`,
        ]),
    `| Run | ${input.options.quick ? 'quick (not comparable)' : 'full'}: ${input.options.rounds} interleaved rounds of ${input.options.durationSeconds} s per server and request, ${input.options.connections} connections; ${input.wallSeconds.toFixed(0)} s in all |`,
    '',
    'The load generator (autocannon, in the bench process) and the server under test share the',
    "machine's cores; a load average above 0 before the run means other work was running too.",
    '',
  ];
}

/** A target over several runs: MET only when every run met it, N/A when none could judge it. */
function acrossRuns(verdicts: readonly TargetCheck['verdict'][]): TargetCheck['verdict'] {
  if (verdicts.includes('MISSED')) return 'MISSED';
  return verdicts.length > 0 && verdicts.every((verdict) => verdict === 'MET') ? 'MET' : 'N/A';
}

function targetsSection(checks: readonly TargetCheck[], runs: readonly RunSummary[]): string[] {
  const several = runs.length > 1;
  const rows = several
    ? checks.map((check) => {
        const each = runs.map((run) => run.checks.find((c) => c.target === check.target));
        const verdict = acrossRuns(each.map((c) => c?.verdict ?? 'N/A'));
        return `| ${check.target} | ${each.map((c) => (c === undefined ? 'n/a' : `${c.measured} (${c.verdict})`)).join(' | ')} | **${verdict}** |`;
      })
    : checks.map((check) => `| ${check.target} | ${check.measured} | **${check.verdict}** |`);
  const missed = several
    ? rows.some((row) => row.endsWith('**MISSED** |'))
    : checks.some((check) => check.verdict === 'MISSED');
  return [
    '## Targets',
    '',
    ...(several
      ? [
          `${runs.length} whole runs in a row (\`--runs ${runs.length}\`); a target is MET only when every run met it. The tables below are the last run's.`,
          '',
          `| Target | ${runs.map((_, index) => `Run ${index + 1}`).join(' | ')} | Verdict |`,
          `|---|${runs.map(() => '---|').join('')}---|`,
        ]
      : ['| Target | Measured | Verdict |', '|---|---|---|']),
    ...rows,
    '',
    ...(missed
      ? [
          'Why a target is missed, and what was tried: [Missed targets](#missed-targets-and-why) below.',
          '',
        ]
      : []),
  ];
}

function throughputSection(result: ThroughputResult): string[] {
  const lines = [
    '## Side by side over HTTP',
    '',
    '![Requests per second by server and request](throughput.svg)',
    '',
    `Medians of ${result.requests.length} requests × ${result.targets.length} servers, interleaved rounds of ${result.durationSeconds} s at ${result.connections} connections. Ratios compare each server with Prism's best configuration for that request (the one with more req/s) and with the ceiling: for req/s higher is better, for latency lower is better. CPU is the server process's user + system time per request.`,
    '',
    '| Request | Server | req/s (range) | vs Prism best | vs ceiling | p50 ms | vs Prism best | vs ceiling | p99 ms | vs Prism best | vs ceiling | CPU µs/req |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const request of result.requests) {
    const cells = result.cells[request.id] ?? {};
    const bestRps = prismBest(result, request.id);
    const bestId: TargetId =
      (cells['prism-silent']?.requestsPerSecond ?? 0) >=
      (cells['prism-default']?.requestsPerSecond ?? 0)
        ? 'prism-silent'
        : 'prism-default';
    const best = cells[bestId];
    const ceiling = cells.ceiling;
    for (const target of result.targets) {
      const cell = cells[target];
      if (cell === undefined) continue;
      const flag =
        cell.unexpected + cell.errors > 0
          ? ` ⚠ ${cell.unexpected} unexpected statuses, ${cell.errors} errors`
          : '';
      lines.push(
        `| ${request.label} | ${targetLabels[target]}${flag} | ${n(cell.requestsPerSecond)} (${n(cell.rpsSpread.min)}–${n(cell.rpsSpread.max)}) | ${times(ratio(cell.requestsPerSecond, bestRps))} | ${percent(ratio(cell.requestsPerSecond, ceiling?.requestsPerSecond))} | ${n(cell.p50Ms, 2)} | ${times(ratio(cell.p50Ms, best?.p50Ms))} | ${times(ratio(cell.p50Ms, ceiling?.p50Ms))} | ${n(cell.p99Ms, 2)} | ${times(ratio(cell.p99Ms, best?.p99Ms))} | ${times(ratio(cell.p99Ms, ceiling?.p99Ms))} | ${n(cell.cpuUsPerRequest)} |`,
      );
    }
  }
  const wiremock = result.cells.list?.wiremock?.requestsPerSecond;
  const fake = result.cells.list?.fake?.requestsPerSecond;
  lines.push(
    '',
    result.wiremockSkipped === undefined
      ? `WireMock and the ceiling serve the fake's own answers (status, headers and body, captured after the warm-up; Content-Length, Date and Connection are written by each server's own HTTP stack), WireMock as static stubs, with its request journal and request logging off, after a warm-up of at least 5 s per request so the JVM has compiled its hot paths. On \`GET /v1/pets?limit=20\` the fake serves ${times(ratio(fake, wiremock))} WireMock's req/s.`
      : `WireMock was left out: ${result.wiremockSkipped}.`,
    '',
    `Resident memory of each server process (VmRSS). The fake keeps every pet it is sent (it is a store): after the rounds it held ${result.petsAfterLoad === undefined ? 'an unknown number of' : result.petsAfterLoad.toLocaleString('en-US')} pets.`,
    '',
    '| Server | once it first answered | after the rounds |',
    '|---|---|---|',
    ...result.targets.map(
      (target) =>
        `| ${targetLabels[target]} | ${mib(result.residentAfterStart[target])} | ${mib(result.residentAfterLoad[target])} |`,
    ),
    '',
    "Response bodies (bytes; the ceiling and WireMock send exactly the fake's bytes, Prism its static example):",
    '',
    '| Request | fake and ceiling | Prism |',
    '|---|---|---|',
    ...result.requests.map(
      (request) =>
        `| ${request.label} | ${n(result.bodyBytes[request.id])} | ${n(result.prismBodyBytes[request.id])} |`,
    ),
    '',
  );
  return lines;
}

function coldStartSection(result: ColdStartResult): string[] {
  return [
    '## Cold start',
    '',
    'Spawn to first 200 on `GET /pets?limit=20`, polled every 5 ms; runs rotate between the rows. The target is judged on the first row: the server `npm start` runs, a bundle of the CLI that its prestart step (scripts/build-server.ts) builds with esbuild. The last row is the same CLI run from source, for comparison.',
    '',
    '| Server | median ms | vs Prism | runs (ms) |',
    '|---|---|---|---|',
    ...result.rows.map(
      (row) =>
        `| ${row.label} | ${n(row.medianMs)} | ${percent(ratio(row.medianMs, result.prismMedianMs))} | ${row.runsMs.map((ms) => n(ms)).join(', ')} |`,
    ),
    '',
    `Before the server starts, \`npm start\`'s prestart step checks the bundle against the files it was built from: ${n(result.buildMs.fresh)} ms when nothing changed (plus starting Node for the check), ${n(result.buildMs.rebuild)} ms to rebuild after a change (medians).`,
    '',
  ];
}

function inProcessSection(result: InProcessResult): string[] {
  return [
    '## In process',
    '',
    `Sequential \`fetch\` calls, one at a time, ${result.requests} per round, median of ${result.rounds} rounds, \`GET /v1/pets?limit=20\`.`,
    '',
    '| Path | µs per request |',
    '|---|---|',
    `| \`fake.fetch\`: the behaviour core, no msw, no socket | ${n(result.fakeFetchUs)} |`,
    `| msw \`setupServer\` over the fake's handlers (\`createFakeServer\`, mock/doors/node/node.ts) | ${n(result.setupServerUs)} (CPU ${n(result.setupServerCpuUs)}) |`,
    `| loopback \`fetch\` to the bare ceiling server (another process) | ${n(result.loopbackUs)} |`,
    `| msw \`getResponse(fake.handlers, request)\` called directly: same handlers, no interception | ${n(result.getResponseUs)} |`,
    '',
    `\`fake.fetch\` costs ${times(ratio(result.fakeFetchUs, result.loopbackUs))} a loopback round trip. Through \`setupServer\` a request costs ${times(ratio(result.setupServerUs, result.loopbackUs))} a real loopback round trip to another process, and ${times(ratio(result.setupServerUs, result.getResponseUs))} the handlers themselves: msw 3 intercepts Node's \`fetch\` at the socket level, so each request is written as HTTP/1.1 to an emulated socket, parsed, answered and parsed back.`,
    '',
  ];
}

function journalSection(result: JournalCostResult): string[] {
  return [
    '## The request journal',
    '',
    `The fake as \`npm start\` runs it, twice: the request journal on (its default, 1000 entries, filled by the warm-up, so each request also lets the oldest go) and off (\`--journal-entries 0\`); ${result.seconds} s a run, median of ${result.rounds} interleaved rounds.`,
    '',
    '| Request | req/s on | req/s off | CPU µs/req on | CPU µs/req off | what journalling costs a request |',
    '|---|---|---|---|---|---|',
    ...result.rows.map(
      (row) =>
        `| ${row.label} | ${n(row.onRps)} | ${n(row.offRps)} | ${n(row.onCpuUs, 1)} | ${n(row.offCpuUs, 1)} | ${n(row.onCpuUs - row.offCpuUs, 1)} µs CPU (${percent(ratio(row.onCpuUs - row.offCpuUs, row.offCpuUs))}) |`,
    ),
    '',
  ];
}

function scaleSection(result: ScaleResult): string[] {
  const sizes = result.sizes;
  const first = sizes[0] as number;
  const last = sizes.at(-1) as number;
  const lines = [
    '## Scale',
    '',
    `One fake per store size (\`--seed\` with that many pets), one connection (service time, not queueing), ${result.rounds} interleaved rounds; p50 with p99 in brackets, ms.`,
    '',
    `| Request | ${sizes.map((size) => `${n(size)} pets`).join(' | ')} | p50 ${n(last)} ÷ ${n(first)} |`,
    `|---|${sizes.map(() => '---').join('|')}|---|`,
  ];
  for (const probe of scaleProbes) {
    const points = result.points[probe.id] ?? {};
    lines.push(
      `| ${probe.label} | ${sizes.map((size) => `${n(points[size]?.p50Ms, 3)} (${n(points[size]?.p99Ms, 2)})`).join(' | ')} | ${times(ratio(points[last]?.p50Ms, points[first]?.p50Ms))} |`,
    );
  }
  lines.push(
    `| Start with the seed, spawn to first 200 (ms) | ${sizes.map((size) => n(result.startMs[size])).join(' | ')} | |`,
    `| Resident memory after the rounds | ${sizes.map((size) => mib(result.seededRssBytes[size])).join(' | ')} | |`,
    '',
    `Creates over HTTP: ${n(result.creates)} \`POST /v1/pets\` at ${result.createConnections} connections into a fake started with ${n(first)} pets: **${n(result.createsPerSecond)} creates/s** (p99 ${n(result.createP99Ms, 2)} ms); resident memory ${mib(result.rssBeforeCreatesBytes)} before, **${mib(result.rssAfterCreatesBytes)} after**.`,
    '',
    `Resident memory is mostly V8's heap high-water mark (garbage not yet collected, pages not yet returned), not what the store keeps: created in process through the same handlers and measured after a full GC, the store keeps **${n(result.retained.bytesPerPet)} bytes per pet** (${n(result.retained.pets)} pets: heap ${mib(result.retained.heapBeforeBytes)} → ${mib(result.retained.heapAfterBytes)}), about ${mib(result.retained.bytesPerPet * 100_000)} for 100,000 pets. The store keeps plain records in an id index and id-ordered lists; a bare @msw/data collection of the same schema, which the store kept every pet in until 2026-11-25, keeps **${n(result.retained.mswDataBytesPerPet)} bytes per pet** for the same pets on its own (${times(ratio(result.retained.mswDataBytesPerPet, result.retained.bytesPerPet))} the store's whole cost).`,
    '',
  );
  return lines;
}

function harnessSection(result: HarnessResult): string[] {
  if (!result.available) return ['## Contract harness', '', `Not available: ${result.reason}.`, ''];
  return [
    '## Contract harness',
    '',
    "`npm run contract -- --base-url <url>` with no other flag, against a fake started as `npm start` starts it; requests and statuses counted from the fake's request log.",
    '',
    '| Key | wall s | requests | statuses | 429s | control-surface requests | exit | harness summary |',
    '|---|---|---|---|---|---|---|---|',
    ...result.runs.map(
      (run) =>
        `| ${run.key === 'free' ? 'Free (60/min)' : 'Enterprise (limits do not bind)'} | ${n(run.wallMs / 1000, 1)}${run.timedOut ? ' (timed out)' : ''} | ${run.counts.requests} | ${Object.entries(
          run.counts.statuses,
        )
          .map(([code, count]) => `${code}×${count}`)
          .join(
            ', ',
          )} | ${run.rateLimited} | ${run.counts.control} | ${run.exitCode ?? 'killed'} | ${run.summary.replaceAll('\n', ' / ').replaceAll('|', '\\|')} |`,
    ),
    '',
  ];
}

function browserSection(result: BrowserResult): string[] {
  const ms = (us: number) => `${n(us / 1000, 2)} ms`;
  const row = (label: string, timings: BrowserResult['ownFake']) =>
    `| ${label} | ${ms(timings.listUs)} | ${ms(timings.createUs)} |`;
  return [
    '## Browser door',
    '',
    `A page's \`fetch\` through msw's service worker in headless Chromium, timed in the page: ${n(result.requests)} sequential requests each way per round, medians of ${result.rounds} interleaved rounds (mock/doors/browser/README.md, "How the tabs share one fake"). ${result.chromium}.`,
    '',
    '| The tab meets | `GET /v1/pets?limit=20` | `POST /v1/pets` |',
    '|---|---|---|',
    row('a fake of its own (`shared: false`, in memory)', result.ownFake),
    row(
      'the shared fake, running in this tab (answer after its IndexedDB write)',
      result.runningTab,
    ),
    row('the shared fake, running in another tab (BroadcastChannel both ways)', result.otherTab),
    '',
    `A 1 KiB message there and back: ${n(result.messageRoundTripUs.broadcastChannel)} µs between two tabs over a BroadcastChannel (how a tab reaches the one running the fake), ${n(result.messageRoundTripUs.sharedWorker)} µs to a SharedWorker over its port (the design not taken).`,
    '',
  ];
}

function proxySection(result: ProxyOverheadResult): string[] {
  const ms = (value: number) => n(value, 3);
  return [
    '## Contract proxy',
    '',
    `\`npm run contract -- proxy\` (the CLI, in its own process) in front of the fake: \`GET /v1/pets?limit=20\` one at a time over one kept-alive connection, ${n(result.requests)} each way in alternating rounds. The proxy judged ${n(result.judged)} exchanges (the warm-up included) and sent none of its own.`,
    '',
    '| | p50 ms | p99 ms |',
    '|---|---|---|',
    `| straight to the fake | ${ms(result.direct.p50)} | ${ms(result.direct.p99)} |`,
    `| through the proxy | ${ms(result.viaProxy.p50)} | ${ms(result.viaProxy.p99)} |`,
    `| **added by the proxy** | **${ms(result.added.p50)}** | **${ms(result.added.p99)}** |`,
    '',
  ];
}

function replicasSection(result: ReplicasResult, checks: readonly TargetCheck[]): string[] {
  const lines = [
    '## Replicas on Redis',
    '',
    `The fake as \`npm start\` runs it (the bundle, its Node flags, the bench key's limits out of reach), three ways in the same interleaved rounds: in memory; one replica (\`--redis\`) on a redis-server of its own; two replicas of one fleet on another redis-server, the load generator's connections alternating between their two ports (no front: it would be a third busy process). ${result.connections} connections, ${result.seconds} s a run, medians of ${result.rounds} rounds. CPU is user + system time from /proc over each run, divided by its requests: of the fake's processes (both replicas together) and of redis-server. Load average ${formatLoad(result.loadBefore)} when the section started, ${formatLoad(result.loadAfter)} when it ended.`,
    '',
    '| Request | Setup | req/s (range) | p99 ms | CPU µs/req fake | CPU µs/req Redis | CPU µs/req together | vs in memory | commands sent/req | Redis calls/req |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const request of result.requests) {
    const cells = result.cells[request.id];
    const memory = cells?.memory;
    for (const id of result.setups) {
      const cell = cells?.[id];
      if (cell === undefined) continue;
      const calls = Object.entries(cell.callsPerRequest)
        .map(([command, perRequest]) => `${command} ${n(perRequest, 2)}`)
        .join(', ');
      lines.push(
        `| ${request.label} | ${replicaSetupLabels[id]} | ${n(cell.requestsPerSecond)} (${n(cell.rpsSpread.min)}–${n(cell.rpsSpread.max)}) | ${n(cell.p99Ms, 2)} | ${n(cell.replicaCpuUs, 1)} | ${id === 'memory' ? '-' : n(cell.redisCpuUs, 1)} | ${n(cell.totalCpuUs, 1)} | ${times(ratio(cell.totalCpuUs, memory?.totalCpuUs))} | ${id === 'memory' ? '-' : n(cell.roundTrips, 2)} | ${calls || '-'} |`,
      );
    }
  }
  const sources = Object.entries(result.commandSources);
  // The bench's own INFO reads reach MONITOR too; they are not the replica's.
  const sent = sources
    .filter(([command, seen]) => seen.client > 0 && command !== 'info')
    .map(([command]) => command);
  const inScripts = sources.filter(([, seen]) => seen.script > 0).map(([command]) => command);
  lines.push(
    '',
    `Redis calls are each command's calls in \`INFO commandstats\` over the run divided by its requests, the bench's own INFO left out; commandstats also counts the commands a script runs inside Redis, so the commands sent count only what clients send, as a MONITOR sample of the one-replica fleet (${n(replicaSampleRequests)} of each request one at a time, in a pass of its own) told them apart: sent by the replica ${sent.map((command) => `\`${command}\``).join(', ') || 'none'}; run inside its scripts ${inScripts.map((command) => `\`${command}\``).join(', ') || 'none'}.`,
    '',
    `Round trips a request, counted by Redis as read events (\`INFO stats\` total_reads_processed: Redis reads the commands a client wrote at once in one event) over ${n(replicaSampleRequests)} of each request sent one at a time to the one replica, the separate writes a request's commands arrive in, pipelined commands counted once: ${result.requests.map((request) => `\`${request.label}\` ${n(result.sequentialRoundTrips[request.id], 2)}`).join(', ')}. A fraction means some requests' commands shared a write with another's (a command sent after the answer leaves with the next request's). Under load a replica's client batches several requests' commands too, so the commands sent, not these, are what Redis's CPU follows.`,
    '',
    'What a larger fleet would serve: Redis runs every command on one thread, so one core over its CPU per request is the most the whole fleet serves, however many replicas; at that rate the replicas keep this many cores busy.',
    '',
    '| Request | Redis CPU µs/req (two replicas) | fleet ceiling req/s | replica cores at the ceiling | two replicas measured req/s |',
    '|---|---|---|---|---|',
  );
  for (const request of result.requests) {
    const two = result.cells[request.id]?.two;
    const ceiling = fleetCeiling(two?.redisCpuUs ?? Number.NaN, two?.replicaCpuUs ?? Number.NaN);
    lines.push(
      `| ${request.label} | ${n(two?.redisCpuUs, 1)} | ${n(ceiling.requestsPerSecond)} | ${n(ceiling.replicaCores, 1)} | ${n(two?.requestsPerSecond)} |`,
    );
  }
  const { exactness } = result;
  lines.push(
    '',
    `Exactness under load: ${exactness.connections} connections over the two replicas sent ${n(exactness.sent)} \`GET /v1/pets?limit=20\` with one key of ${exactness.limitPerMinute} a minute, the fleet's clock frozen first (\`POST /__control/clock {"freeze":true}\`): **${exactness.admitted} admitted** (statuses ${Object.entries(
      exactness.statuses,
    )
      .map(([code, count]) => `${code}×${count}`)
      .join(', ')}).`,
    '',
    '| Target | Measured | Verdict |',
    '|---|---|---|',
    ...checks
      .filter((check) => check.target.includes('replica'))
      .map((check) => `| ${check.target} | ${check.measured} | **${check.verdict}** |`),
    '',
  );
  return lines;
}

/** Stages under this share of every request are summed into one row. */
const smallStage = 0.005;

function stagesSection(result: StagesResult, throughput: ThroughputResult | undefined): string[] {
  const { breakdowns } = result;
  const shown = new Set<string>();
  for (const breakdown of breakdowns)
    for (const { stage, share } of breakdown.stages) if (share >= smallStage) shown.add(stage);
  // Rows in the order of their cost over every request.
  const weight = (stage: string) =>
    breakdowns.reduce(
      (sum, breakdown) => sum + (breakdown.stages.find((s) => s.stage === stage)?.share ?? 0),
      0,
    );
  const rows = [...shown].sort((a, b) => weight(b) - weight(a));
  const cell = (us: number, share: number) => `${n(us, 1)} (${percent(share)})`;
  const lines = [
    "## Where each request's CPU goes, stage by stage",
    '',
    `The fake as \`npm start\` runs it, every recorder on, profiled by V8 (one sample every ${result.intervalUs} µs) in a pass of its own after the timed rounds, ${result.seconds} s of load per request at ${result.connections} connections after a warm-up. A stage is where a sampled function's source lives (\`bench/stage-attribution.ts\`): each file of a step group, or each feature folder under one, is a row of its own, so a new step or recorder appears here with no change to the bench; \`JSON.parse\` and \`JSON.stringify\` get frames of their own (\`bench/json-frames.ts\`), which V8 otherwise folds into their callers; native code and Node's own library (a \`new URL()\`, a decode, an event) count for the stage that called them, and only what the event loop, the HTTP parser and the door's socket writes run is Node's row, as a bare node:http server pays it. µs are each stage's share of the working samples times the CPU per request /proc measured over the profiled load, the profiler's own cost included: compare stages by share, totals in the side-by-side table.`,
    '',
    "![The fake's CPU per request by stage](stages.svg)",
    '',
    `| stage | ${breakdowns.map((b) => `\`${b.request.label}\` µs (share)`).join(' | ')} |`,
    `|---|${breakdowns.map(() => '---').join('|')}|`,
  ];
  for (const stage of rows) {
    const cells = breakdowns.map((breakdown) => {
      const found = breakdown.stages.find((s) => s.stage === stage);
      return found === undefined ? '-' : cell(found.us, found.share);
    });
    lines.push(`| ${stage} | ${cells.join(' | ')} |`);
  }
  const rest = breakdowns.map((breakdown) => {
    const small = breakdown.stages.filter((s) => !shown.has(s.stage));
    return cell(
      small.reduce((sum, s) => sum + s.us, 0),
      small.reduce((sum, s) => sum + s.share, 0),
    );
  });
  lines.push(`| stages under ${percent(smallStage)} everywhere | ${rest.join(' | ')} |`);
  lines.push(
    `| **CPU per request, profiled** | ${breakdowns.map((b) => `**${n(b.cpuUsPerRequest, 1)}**`).join(' | ')} |`,
  );
  if (throughput !== undefined) {
    const timed = (target: TargetId) =>
      breakdowns.map((b) => n(throughput.cells[b.request.id]?.[target]?.cpuUsPerRequest, 1));
    lines.push(`| the fake in the timed rounds | ${timed('fake').join(' | ')} |`);
    if (throughput.targets.includes('ceiling'))
      lines.push(`| bare node:http ceiling, timed | ${timed('ceiling').join(' | ')} |`);
    if (throughput.targets.includes('wiremock'))
      lines.push(`| WireMock, timed | ${timed('wiremock').join(' | ')} |`);
  }
  lines.push(
    '',
    `Samples that did work, per request: ${breakdowns.map((b) => `${b.request.id} ${n(b.samples)} over ${n(b.requests)} requests`).join('; ')}.`,
    '',
  );
  return lines;
}

/** The whole results file. */
export function renderReport(input: ReportInput): string {
  const date = input.startedAt.toISOString().replace('T', ' ').slice(0, 16);
  const lines = [
    '# Benchmark results',
    '',
    `Measured ${date} UTC by \`npm run bench\`${input.options.quick ? ' --quick' : ''}; how to run it and what each number means: [README](README.md).`,
    '',
    ...machineSection(input),
    ...targetsSection(input.checks, input.runs),
  ];
  if (input.throughput) lines.push(...throughputSection(input.throughput));
  if (input.stages) lines.push(...stagesSection(input.stages, input.throughput));
  if (input.coldStart) lines.push(...coldStartSection(input.coldStart));
  if (input.inProcess) lines.push(...inProcessSection(input.inProcess));
  if (input.journal) lines.push(...journalSection(input.journal));
  if (input.scale) lines.push(...scaleSection(input.scale));
  if (input.harness) lines.push(...harnessSection(input.harness));
  if (input.proxy) lines.push(...proxySection(input.proxy));
  if (input.browser) lines.push(...browserSection(input.browser));
  if (input.replicas) lines.push(...replicasSection(input.replicas, input.checks));
  const failures = Object.entries(input.failures);
  if (failures.length > 0) {
    lines.push('## Sections that failed', '');
    for (const [section, message] of failures) lines.push(`- **${section}**: ${message}`);
    lines.push('');
  }
  lines.push(input.optimisations.trim(), '');
  return lines.join('\n');
}
