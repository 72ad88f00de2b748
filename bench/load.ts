/**
 * One load run: autocannon against one URL for a fixed time (or a fixed number of requests),
 * with every latency kept at full precision (autocannon's own histogram rounds to whole
 * milliseconds, too coarse for sub-millisecond p50s), and the server's CPU time per request.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMicros } from './processes.ts';
import { type BenchRequest, benchHeaders } from './requests.ts';
import { percentileOfSorted, Samples } from './stats.ts';

/** What to send, how hard and for how long. */
export interface LoadSpec {
  /** One URL, or several to spread the connections over (connection i goes to URL i mod n). */
  readonly url: string | readonly string[];
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Concurrent connections. */
  readonly connections: number;
  /** Seconds to run; ignored when `amount` is given. */
  readonly durationSeconds?: number;
  /** Exact number of requests to send. */
  readonly amount?: number;
  /** Rewrites each request's path (e.g. to spread ids over the store). */
  readonly path?: (sequence: number) => string;
  /** The server's pid, to report its CPU time per request. */
  readonly serverPid?: number;
  /** More processes whose CPU time per request is reported, each apart (a fleet, its Redis). */
  readonly watchedPids?: readonly number[];
}

/** The outcome of one run. */
export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses that were not 2xx. */
  readonly non2xx: number;
  /** Count per status code. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Connection errors and time-outs. */
  readonly errors: number;
  /** Server CPU time (user + system) per request, in microseconds, when its pid was given. */
  readonly serverCpuUsPerRequest: number | undefined;
  /** CPU time per request of each of `watchedPids`, in their order (undefined off Linux). */
  readonly watchedCpuUsPerRequest: readonly (number | undefined)[];
  /**
   * How long the load generator's own garbage collections paused it during the run, ms: the
   * latencies are timed in this process, so each pause adds to every answer in flight.
   */
  readonly loadGeneratorGcMs: number;
}

/** Runs one load and resolves with its figures. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies = new Samples();
  const statuses: Record<string, number> = {};
  const cpuBefore = spec.serverPid === undefined ? undefined : cpuMicros(spec.serverPid);
  const watchedBefore = (spec.watchedPids ?? []).map(cpuMicros);
  const started = performance.now();
  let loadGeneratorGcMs = 0;
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) loadGeneratorGcMs += entry.duration;
  });
  collections.observe({ entryTypes: ['gc'] });
  let sequence = 0;
  const rewrite = spec.path;
  const options: autocannon.Options = {
    // autocannon takes a list of URLs (lib/run.js), though its types say one string.
    url: spec.url as string,
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    connections: spec.connections,
    pipelining: 1,
    timeout: 10,
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(spec.amount === undefined
      ? { duration: spec.durationSeconds ?? 3 }
      : { amount: spec.amount, duration: 3_600 }),
    ...(rewrite === undefined
      ? {}
      : {
          requests: [
            {
              setupRequest: (request) => {
                request.path = rewrite(sequence++);
                return request;
              },
            },
          ],
        }),
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => {
      // Entries are delivered in a later task: the last ones are taken now, not dropped.
      for (const entry of collections.takeRecords()) loadGeneratorGcMs += entry.duration;
      collections.disconnect();
      if (error) {
        reject(error);
        return;
      }
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = spec.serverPid === undefined ? undefined : cpuMicros(spec.serverPid);
      const watchedAfter = (spec.watchedPids ?? []).map(cpuMicros);
      const requests = latencies.length;
      const sorted = latencies.sorted();
      const non2xx = Object.entries(statuses)
        .filter(([code]) => !code.startsWith('2'))
        .reduce((sum, [, count]) => sum + count, 0);
      resolve({
        requests,
        seconds,
        requestsPerSecond: requests / (spec.amount === undefined ? result.duration : seconds),
        p50Ms: percentileOfSorted(sorted, 50),
        p99Ms: percentileOfSorted(sorted, 99),
        non2xx,
        statuses,
        errors: result.errors,
        serverCpuUsPerRequest:
          cpuBefore === undefined || cpuAfter === undefined || requests === 0
            ? undefined
            : (cpuAfter - cpuBefore) / requests,
        watchedCpuUsPerRequest: watchedAfter.map((after, index) => {
          const before = watchedBefore[index];
          return before === undefined || after === undefined || requests === 0
            ? undefined
            : (after - before) / requests;
        }),
        loadGeneratorGcMs,
      });
    });
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      const code = String(statusCode);
      statuses[code] = (statuses[code] ?? 0) + 1;
    });
  });
}

/**
 * Loads one running server with the bench's requests: `base` is its base URL, `serverPid` its
 * process (for its CPU per request). Each call sends one request of `benchRequests` for a time or
 * a number of requests, with the bench key, at `connections`.
 * @example const load = benchLoad(baseUrl('fake', port), server.pid, 10); await load(createRequest, { amount: 100 });
 */
export function benchLoad(base: string, serverPid: number, connections: number) {
  return (what: BenchRequest, amount: { durationSeconds: number } | { amount: number }) =>
    runLoad({
      url: `${base}${what.path}`,
      method: what.method,
      headers: benchHeaders,
      ...(what.body === undefined ? {} : { body: what.body }),
      connections,
      ...amount,
      serverPid,
    });
}
