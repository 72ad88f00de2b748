/**
 * JUnit XML (`--junit <file>`), for CI dashboards: one testcase per check that is not broken,
 * grouped by area, and one failing testcase per finding (findings.ts), named after its lead
 * check, whose failure text lists every rule the answer breaks. So `failures` counts the things
 * to fix, as the console's FAIL lines do; the properties count findings and broken rules apart.
 */
import { toCurl } from '../http/curl.ts';
import type { CheckResult, SuiteResult } from '../runner/results.ts';
import { type ReplayInfo, replayLine, seenInLine } from './console-report.ts';
import { type Finding, findingsOf, isBroken } from './findings.ts';

/** Whether XML 1.0 can carry a character at all (most control characters it cannot, even escaped). */
function xmlSafe(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function escapeXml(text: string): string {
  const safe = [...text]
    .map((char) =>
      xmlSafe(char) ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .join('');
  return safe
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** What a JUnit report states about its run as `<properties>`, by name. */
type JunitProperties = Readonly<Record<string, string | number>>;

/** An active run's properties: its seed, the requests it sent and the 429s it met. */
const runProperties = (suite: SuiteResult): JunitProperties => ({
  seed: suite.seed,
  requests: suite.requests,
  answered429: suite.answered429,
});

/**
 * Renders a run as JUnit XML; `strict` reports warnings as failures; `replay` is the command a
 * failure replays with (as the report prints it), undefined for the proxy, whose verdicts come
 * from traffic no seed replays; `properties` state what the run did (an active run's seed and
 * requests by default; the proxy says what it forwarded and judged, having no seed).
 * @example writeFileSync('contract.xml', toJunit(result, false, { command: 'npm run contract -- --fake', seed: 5 }))
 */
export function toJunit(
  suite: SuiteResult,
  strict: boolean,
  replay: ReplayInfo | undefined,
  properties: JunitProperties = runProperties(suite),
): string {
  const findings = findingsOf(suite.results, strict);
  const broken = suite.results.filter((result) => isBroken(result, strict)).length;
  const leads = new Map<CheckResult, Finding>(findings.map((finding) => [finding.lead, finding]));
  // A broken check that leads no finding is listed in its lead's testcase.
  const shown = suite.results.filter((result) => !isBroken(result, strict) || leads.has(result));
  const failures = findings.length;
  const skipped = shown.filter((result) => result.status === 'skip').length;
  const cases = shown.map((result) => {
    const area = result.id.split('.')[0] ?? result.id;
    const open = `    <testcase classname="petstore-contract.${escapeXml(area)}" name="${escapeXml(result.id)}" time="${(result.durationMs / 1000).toFixed(3)}">`;
    const body: string[] = [];
    if (result.status === 'skip')
      body.push(
        `      <skipped message="${escapeXml(`${result.skip ?? 'skipped'}: ${result.reason ?? ''}`)}"/>`,
      );
    const finding = leads.get(result);
    if (finding !== undefined) {
      const failure = result.failure;
      const times = failure?.occurrences ?? 1;
      const details = [
        result.title,
        `rule: ${result.source} (openapi/interface.md)`,
        seenInLine(result) ?? '',
        failure?.message ?? '',
        times > 1 ? `seen on ${times} answers (the first is shown)` : '',
        failure?.counterexample === undefined ? '' : `counterexample: ${failure.counterexample}`,
        ...finding.also.flatMap((other) => [
          `the same answer breaks ${other.id}${(other.failure?.occurrences ?? 1) > 1 ? ` (on ${other.failure?.occurrences} answers)` : ''}: ${other.failure?.message ?? other.title}`,
          `  rule: ${other.source} (openapi/interface.md)`,
          ...[seenInLine(other) ?? ''].map((line) => (line === '' ? '' : `  ${line}`)),
        ]),
        failure?.exchange === undefined ? '' : `reproduce: ${toCurl(failure.exchange)}`,
        replay === undefined ? '' : `replay: ${replayLine(replay, result)}`,
      ].filter((line) => line !== '');
      const rules =
        finding.also.length === 0
          ? ''
          : ` (and ${finding.also.map((other) => other.id).join(', ')})`;
      body.push(
        `      <failure message="${escapeXml(`${failure?.message ?? 'failed'}${rules}`)}" type="${escapeXml(result.id)}">${escapeXml(details.join('\n'))}</failure>`,
      );
    }
    if (result.status === 'warn' && !strict)
      body.push(
        `      <system-out>${escapeXml(`advisory: ${result.failure?.message ?? ''}`)}</system-out>`,
      );
    return body.length === 0
      ? `${open}</testcase>`
      : `${open}\n${body.join('\n')}\n    </testcase>`;
  });
  const counted = { ...properties, findings: failures, rulesBroken: broken };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-contract" tests="${shown.length}" failures="${failures}" skipped="${skipped}" time="${(suite.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${escapeXml(suite.baseUrl)}" tests="${shown.length}" failures="${failures}" skipped="${skipped}" time="${(suite.durationMs / 1000).toFixed(3)}">`,
    `    <properties>${Object.entries(counted)
      .map(
        ([name, value]) =>
          `<property name="${escapeXml(name)}" value="${escapeXml(String(value))}"/>`,
      )
      .join('')}</properties>`,
    ...cases,
    // Said before the findings on the console: what answers there may not be a Pet Store at all.
    ...(suite.notAPetStore === undefined
      ? []
      : [`    <system-out>${escapeXml(suite.notAPetStore.join('\n'))}</system-out>`]),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
