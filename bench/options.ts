/**
 * Options of `npm run bench`, from flags or environment variables, with the full run's defaults
 * and a `--quick` mode for building and debugging the bench (its numbers are not comparable).
 */
import { parseArgs } from 'node:util';
import { BenchError } from './processes.ts';

/** The parts of the bench, in the order they run. */
export const sections = [
  'throughput',
  'stages',
  'cold-start',
  'in-process',
  'journal',
  'scale',
  'harness',
  'proxy',
  'browser',
  'replicas',
] as const;

/** One part of the bench. */
export type Section = (typeof sections)[number];

/** Everything a run needs to know. */
export interface BenchOptions {
  readonly quick: boolean;
  /** Seconds per load run in the side-by-side rounds. */
  readonly durationSeconds: number;
  /** Interleaved rounds; medians are taken across them. */
  readonly rounds: number;
  /**
   * Whole bench runs in a row: a target is MET only when every run meets it (a margin that one
   * quiet moment gives is not a result).
   */
  readonly runs: number;
  /** Seconds of unmeasured load per server and request before the rounds. */
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Spawns per server for the cold start. */
  readonly coldStartRuns: number;
  /** Sequential requests per in-process round. */
  readonly inProcessRequests: number;
  /** Store sizes for the scale section, smallest first. */
  readonly scaleSizes: readonly number[];
  /** Seconds per load run in the scale section. */
  readonly scaleSeconds: number;
  /** Pets created over HTTP to measure creates per second and memory. */
  readonly creates: number;
  readonly only: readonly Section[];
  /** Write bench/results.md and bench/throughput.svg. */
  readonly write: boolean;
  /** Directory for the results files. */
  readonly outDir: string;
}

/** The help text of `npm run bench -- --help`. */
export const usage = `Usage: npm run bench -- [options]

  --quick               short runs to check the bench works (about a minute; numbers not comparable)
  --duration <s>        seconds per load run (default 3; quick 1)       env BENCH_DURATION
  --rounds <n>          interleaved rounds, medians across them (default 3; quick 1)  env BENCH_ROUNDS
  --runs <n>            whole runs in a row; a target is MET only if every run meets it (default 1)  env BENCH_RUNS
  --connections <n>     concurrent connections (default 10)
  --only <a,b>          run only these sections: ${sections.join(', ')}   env BENCH_ONLY
  --no-write            print only; do not rewrite bench/results.md and bench/throughput.svg
  --out <dir>           where to write the results (default bench/)
  --help                this text

A full run writes bench/results.md and bench/throughput.svg; --quick and --only write nothing
unless --write is given.`;

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new BenchError(`${name} must be a positive number, got "${value}"\n\n${usage}`);
  return n;
}

function parseSections(value: string | undefined): readonly Section[] {
  if (value === undefined || value === '') return sections;
  const chosen = value.split(',').map((part) => part.trim());
  for (const name of chosen) {
    if (!(sections as readonly string[]).includes(name))
      throw new BenchError(`--only takes any of: ${sections.join(', ')}; got "${name}"`);
  }
  return sections.filter((name) => chosen.includes(name));
}

/** Reads the options from argv and the environment; throws a `bench:` error on a bad value. */
export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: env.BENCH_QUICK === '1' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      runs: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      write: { type: 'boolean' },
      'no-write': { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const quick = values.quick ?? false;
  const only = parseSections(values.only ?? env.BENCH_ONLY);
  const partial = quick || only.length < sections.length;
  return {
    quick,
    durationSeconds: positive(values.duration ?? env.BENCH_DURATION, '--duration', quick ? 1 : 3),
    rounds: Math.round(positive(values.rounds ?? env.BENCH_ROUNDS, '--rounds', quick ? 1 : 3)),
    runs: Math.round(positive(values.runs ?? env.BENCH_RUNS, '--runs', 1)),
    warmupSeconds: quick ? 0.5 : 1,
    connections: Math.round(positive(values.connections, '--connections', 10)),
    coldStartRuns: quick ? 3 : 5,
    inProcessRequests: quick ? 500 : 3_000,
    scaleSizes: quick ? [150, 2_000, 10_000] : [150, 10_000, 100_000],
    scaleSeconds: quick ? 1 : 2,
    creates: quick ? 10_000 : 100_000,
    only,
    write: values['no-write'] ? false : (values.write ?? !partial),
    outDir: values.out ?? new URL('.', import.meta.url).pathname,
  };
}
