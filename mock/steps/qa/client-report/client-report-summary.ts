/**
 * The client report as text, for `npm start`'s exit: the clock the waits were read on, one line
 * per client with its verdict, then one indented line per rule that failed or was inconclusive.
 */
import { describeClockOffset } from '../../../base/clock/clock-offset.ts';
import type { ClientReport } from './client-report.ts';

/** The report in a few lines, e.g. `demo-free  my-app  FAIL  12 requests, 3 failures`. */
export function formatClientReport(report: ClientReport): string {
  if (report.clients.length === 0) return 'Client report: no client sent a request with a key.';
  const lines = ['Client report (Limits, rule 2: Retry-After and exponential backoff):'];
  if (report.clock.mode !== 'real')
    lines.push(
      `  (fake clock ${report.clock.mode}, ${describeClockOffset(report.clock.offsetMs)}: each wait is read on both clocks, the longer counts)`,
    );
  for (const client of report.clients) {
    const failures = Object.values(client.failures).reduce((a, b) => a + b, 0);
    lines.push(
      `  ${client.keyId}  ${client.clientId}  ${client.verdict.toUpperCase()}  ${client.requests} requests, ${failures} failures answered`,
    );
    for (const problem of client.problems) lines.push(`    - ${problem}`);
    for (const doubt of client.doubts) lines.push(`    ? ${doubt}`);
  }
  return lines.join('\n');
}
