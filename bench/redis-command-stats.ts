/**
 * Round trips to Redis, counted by Redis itself: `INFO commandstats` read before and after a load
 * gives the calls of each command, and a short `MONITOR` sample tells which commands clients send
 * and which a script runs inside Redis (commandstats counts both alike, so a script's inner
 * HMGETs would otherwise read as round trips).
 */

/** Calls so far of each command, by its commandstats name (`evalsha_ro`, `config|resetstat`). */
export type CommandCalls = ReadonlyMap<string, number>;

/** The calls of each command in the text of `INFO commandstats`. */
export function parseCommandStats(info: string): CommandCalls {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),/gm))
    calls.set(match[1] as string, Number(match[2]));
  return calls;
}

/**
 * Calls of each command between two readings, per request, leaving out the commands that did not
 * run and `ignored` ones (the bench's own INFO, which the second reading counts).
 */
export function callsPerRequest(
  before: CommandCalls,
  after: CommandCalls,
  requests: number,
  ignored: readonly string[] = ['info'],
): Record<string, number> {
  const perRequest: Record<string, number> = {};
  for (const [command, calls] of after) {
    const made = calls - (before.get(command) ?? 0);
    if (made > 0 && !ignored.includes(command) && requests > 0)
      perRequest[command] = made / requests;
  }
  return perRequest;
}

/** How often each command arrived from a client and from a script, in a MONITOR sample. */
export type CommandSources = ReadonlyMap<
  string,
  { readonly client: number; readonly script: number }
>;

/**
 * Counts the lines of a MONITOR stream (`+1796197387.355 [0 127.0.0.1:55412] "EVALSHA" ...`; a
 * script's own calls name `lua` where the client's address stands) by command and source. A
 * partial last line is left out.
 */
export function parseMonitor(stream: string): CommandSources {
  const sources = new Map<string, { client: number; script: number }>();
  for (const match of stream.matchAll(/^\+\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)".*\r?\n/gm)) {
    const command = (match[2] as string).toLowerCase();
    const counts = sources.get(command) ?? { client: 0, script: 0 };
    if (match[1] === 'lua') counts.script += 1;
    else counts.client += 1;
    sources.set(command, counts);
  }
  return sources;
}

/**
 * Round trips per request: each command's calls per request times the share of its calls that
 * came from a client in the sample. A command the sample never saw counts whole, as sent by a
 * client: a round trip is never hidden for want of a sample.
 */
export function roundTripsPerRequest(
  calls: Readonly<Record<string, number>>,
  sources: CommandSources,
): number {
  let trips = 0;
  for (const [command, perRequest] of Object.entries(calls)) {
    const seen = sources.get(command);
    const share =
      seen === undefined || seen.client + seen.script === 0
        ? 1
        : seen.client / (seen.client + seen.script);
    trips += perRequest * share;
  }
  return trips;
}

/**
 * A counter of `INFO` text (`total_reads_processed:1234`), NaN when absent. Redis counts one read
 * event per batch of commands a client wrote at once, so over requests sent one at a time the
 * reads per request are the round trips each request waits for, pipelined commands counted once.
 */
export function infoCounter(info: string, name: string): number {
  const match = new RegExp(`^${name}:(\\d+)`, 'm').exec(info);
  return match === null ? Number.NaN : Number(match[1]);
}
