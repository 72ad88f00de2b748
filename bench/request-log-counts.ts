/**
 * Counts what a fake answered from its request log (the lines `npm start` prints, one per answered
 * request: mock/doors/cli/cli.ts `formatExchange`), so the bench's count of a harness run does not
 * depend on what the harness says about itself. Read from the fake's own output rather than through
 * a proxy in front of it: a proxy in the bench's process would add a hop and a third busy process
 * on a two-core machine, and with them a good part of a run's time (bench/optimisations.md).
 */

/** What the fake answered. */
export interface RequestCounts {
  readonly requests: number;
  /** Count per status code. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Requests to the fake's control surface (`/__control/`): a run against a URL must send none. */
  readonly control: number;
}

/** A tally fed the fake's output one line at a time. */
export interface RequestLogCounter {
  line(text: string): void;
  counts(): RequestCounts;
}

/** `<ISO time> <METHOD> <url> <status> <ms>ms control|key=<id> ...`: the URL has no spaces. */
const logLine = /^\d{4}-\d\d-\d\dT\S+ [A-Z]+ (\S+) (\d{3}) \d+(?:\.\d+)?ms (control|key=)/;

/** The client id the bench's own ready check sends (`X-Client-Id`), left out of the count. */
export const readyCheckClient = 'petstore-bench-ready-check';

export function createRequestLogCounter(): RequestLogCounter {
  let requests = 0;
  let control = 0;
  const statuses: Record<string, number> = {};
  return {
    line(text) {
      const match = logLine.exec(text);
      if (match === null || text.includes(` client="${readyCheckClient}"`)) return;
      const [, url, status, who] = match as unknown as [string, string, string, string];
      requests += 1;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (who === 'control' || new URL(url, 'http://fake').pathname.startsWith('/__control'))
        control += 1;
    },
    counts: () => ({ requests, statuses: { ...statuses }, control }),
  };
}
