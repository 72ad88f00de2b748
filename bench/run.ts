/**
 * `npm run bench`: measures the fake against Prism and the bare ceiling, its cold start, its
 * in-process cost, what its request journal costs a request, its behaviour at scale, the contract harness's cost, the latency its proxy
 * adds, a request through the browser door (one tab, two tabs) and the fake's replicas on Redis
 * beside it in memory, in one run; prints
 * MET or MISSED against each target; writes bench/results.md and bench/throughput.svg.
 * See bench/README.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleServer } from '../scripts/build-server.ts';
import { type BrowserResult, measureBrowser } from './browser.ts';
import { throughputChart } from './chart.ts';
import { type ColdStartResult, measureColdStart } from './cold-start.ts';
import { type HarnessResult, measureHarness } from './harness.ts';
import { type InProcessResult, measureInProcess } from './in-process.ts';
import { type JournalCostResult, measureJournalCost } from './journal-cost.ts';
import { describeMachine, formatLoad, loadAverage } from './machine.ts';
import { type BenchOptions, parseOptions, type Section, usage } from './options.ts';
import { BenchError } from './processes.ts';
import { measureProxyOverhead, type ProxyOverheadResult } from './proxy-overhead.ts';
import { measureReplicas, type ReplicasResult } from './replicas.ts';
import { type RunSummary, renderReport } from './report.ts';
import { measureScale, type ScaleResult } from './scale.ts';
import { measureStages, type StagesResult } from './stages.ts';
import { stagesChart } from './stages-chart.ts';
import { checkTargets } from './targets.ts';
import { measureThroughput, type ThroughputResult } from './throughput.ts';

const log = (line: string) => console.log(line);

async function section<T>(
  name: Section,
  options: BenchOptions,
  failures: Record<string, string>,
  run: () => Promise<T>,
): Promise<T | undefined> {
  if (!options.only.includes(name)) return undefined;
  console.log(`\n== ${name} ==`);
  const started = performance.now();
  try {
    const result = await run();
    console.log(`== ${name}: ${((performance.now() - started) / 1000).toFixed(0)} s ==`);
    return result;
  } catch (error) {
    // One broken section must not cost the others' numbers: report it and carry on.
    const message = error instanceof Error ? error.message : String(error);
    failures[name] = message.split('\n')[0] ?? message;
    console.error(`bench: section ${name} failed: ${message}`);
    return undefined;
  }
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    const parsed = parseOptions(process.argv.slice(2), process.env);
    if (parsed === 'help') {
      console.log(usage);
      return 0;
    }
    options = parsed;
  } catch (error) {
    if (error instanceof BenchError || (error instanceof TypeError && 'code' in error)) {
      console.error(`${(error as Error).message.replace(/^(?!bench:)/, 'bench: ')}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
  // The fake runs as `npm start` runs it: from the bundle of the current sources.
  await bundleServer();
  const runs: RunSummary[] = [];
  let failed = false;
  for (let index = 0; index < options.runs; index++) {
    if (options.runs > 1) console.log(`\n==== run ${index + 1} of ${options.runs} ====`);
    const run = await runOnce(options, runs);
    runs.push(run.summary);
    failed ||= run.failed;
  }
  return failed ? 1 : 0;
}

/** One whole run: every chosen section, the targets, and (when writing) the results files. */
async function runOnce(
  options: BenchOptions,
  before: readonly RunSummary[],
): Promise<{ summary: RunSummary; failed: boolean }> {
  const startedAt = new Date();
  const started = performance.now();
  const machine = describeMachine();
  console.log(
    `bench: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, load average ${formatLoad(machine.loadBefore)}${options.quick ? ' (quick mode: numbers not comparable)' : ''}`,
  );
  const failures: Record<string, string> = {};
  const throughput: ThroughputResult | undefined = await section(
    'throughput',
    options,
    failures,
    () => measureThroughput(options, log),
  );
  // Its own pass, after the timed rounds: the profiler slows the fake it watches.
  const stages: StagesResult | undefined = await section('stages', options, failures, () =>
    measureStages(options, log),
  );
  const coldStart: ColdStartResult | undefined = await section(
    'cold-start',
    options,
    failures,
    () => measureColdStart(options, log),
  );
  const inProcess: InProcessResult | undefined = await section(
    'in-process',
    options,
    failures,
    () => measureInProcess(options, log),
  );
  const journal: JournalCostResult | undefined = await section('journal', options, failures, () =>
    measureJournalCost(options, log),
  );
  const scale: ScaleResult | undefined = await section('scale', options, failures, () =>
    measureScale(options, log),
  );
  const harness: HarnessResult | undefined = await section('harness', options, failures, () =>
    measureHarness(log),
  );
  const proxy: ProxyOverheadResult | undefined = await section('proxy', options, failures, () =>
    measureProxyOverhead(
      options.quick ? { rounds: 1, perRound: 200 } : { rounds: 5, perRound: 400 },
      log,
    ),
  );
  const browser: BrowserResult | undefined = await section('browser', options, failures, () =>
    measureBrowser(options, log),
  );
  const replicas: ReplicasResult | undefined = await section('replicas', options, failures, () =>
    measureReplicas(options, log),
  );
  const loadAfter = loadAverage();
  const checks = checkTargets({ throughput, coldStart, scale, harness, inProcess, replicas });
  const wallSeconds = (performance.now() - started) / 1000;

  console.log('\n== targets ==');
  for (const check of checks)
    console.log(`${check.verdict.padEnd(6)} ${check.target}: ${check.measured}`);
  console.log(`\nbench: ${wallSeconds.toFixed(0)} s; load average after ${formatLoad(loadAfter)}`);
  const summary: RunSummary = {
    startedAt,
    loadBefore: machine.loadBefore,
    loadAfter,
    wallSeconds,
    checks,
  };

  if (options.write) {
    const optimisations = readFileSync(new URL('./optimisations.md', import.meta.url), 'utf8');
    const report = renderReport({
      startedAt,
      wallSeconds,
      machine,
      loadAfter,
      options,
      throughput,
      stages,
      coldStart,
      inProcess,
      journal,
      scale,
      harness,
      proxy,
      browser,
      replicas,
      checks,
      runs: [...before, summary],
      failures,
      optimisations,
    });
    writeFileSync(join(options.outDir, 'results.md'), report);
    const subtitle = `${startedAt.toISOString().slice(0, 10)}, ${machine.cpuModel} (${machine.cores} cores), Node ${machine.node}, load average before ${formatLoad(machine.loadBefore)}`;
    if (stages) writeFileSync(join(options.outDir, 'stages.svg'), stagesChart(stages, subtitle));
    if (throughput) {
      writeFileSync(join(options.outDir, 'throughput.svg'), throughputChart(throughput, subtitle));
    }
    console.log(
      `bench: wrote ${join(options.outDir, 'results.md')}${throughput ? ', throughput.svg' : ''}${stages ? ', stages.svg' : ''}`,
    );
  } else {
    console.log('bench: results not written (quick or partial run; pass --write to write them)');
  }
  return { summary, failed: Object.keys(failures).length > 0 };
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('bench: internal error:', error);
    process.exitCode = 1;
  },
);
