/**
 * A coverage record in the formats CI reads: Markdown (a job summary), JUnit XML and CTRF (the
 * common JSON test-report format, ctrf.io). Each item is one test: exercised passes, skipped is
 * skipped (with why), not exercised fails, so a dashboard shows the interface's gaps as red.
 * What clients sent is escaped for each format: a GitHub job summary renders Markdown and inline
 * HTML, so a path holding `<img src=...>` or `[a link](...)` must reach it as text. A record is
 * redacted before it is formatted (escaping first would split a secret and hide it from the
 * redaction).
 */
import type { CoverageItemRecord, CoverageRecord } from './coverage-record.ts';

/** Every format, for messages that list the valid ones. */
export const coverageFormats = ['json', 'markdown', 'junit', 'ctrf'] as const;

/** The formats a coverage record is written in. */
export type CoverageFormat = (typeof coverageFormats)[number];

/**
 * Client text as Markdown shows it literally: every ASCII punctuation character CommonMark lets
 * a backslash escape, so no `<tag>`, link, emphasis, code span or pipe is made of it.
 */
const markdownText = (text: string) =>
  text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]<>()#+!|~&"']/g, '\\$&');

/** An example and who sent it, in a few words; `sent` writes what a client sent. */
function exampleText(
  example: CoverageItemRecord['first'],
  sent: (text: string) => string = (text) => text,
): string {
  if (example === undefined) return '';
  const who = [
    example.keyId === undefined ? undefined : `key ${sent(example.keyId)}`,
    example.clientId === undefined ? undefined : `client "${sent(example.clientId)}"`,
    example.checkId === undefined ? undefined : `check ${sent(example.checkId)}`,
  ].filter(Boolean);
  return `${sent(example.method)} ${sent(example.path)} ${example.status}${who.length === 0 ? '' : ` (${who.join(', ')})`}`;
}

/** A table cell of our own text: no pipe or line break may end it early. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/** The record as a Markdown table, exercised or not, with a first example or why it was skipped. */
export function coverageMarkdown(record: CoverageRecord): string {
  const { summary } = record;
  const lines = [
    `## Interface coverage (${record.source})`,
    '',
    `${summary.exercised} of ${summary.items} items exercised, ${summary.notExercised} not exercised, ${summary.skipped} skipped; ${summary.exchanges} exchanges seen${summary.stubbed === undefined ? '' : ` (${summary.stubbed} answered by a stub, which exercise nothing)`} (${record.generatedAt}).`,
    '',
    '| Item | Status | Count | First example, or why |',
    '|---|---|---|---|',
    ...record.items.map((item) => {
      const mark = {
        exercised: 'exercised',
        skipped: 'skipped',
        'not-exercised': '**not exercised**',
      }[item.status];
      const detail =
        item.status === 'skipped' ? cell(item.reason ?? '') : exampleText(item.first, markdownText);
      return `| \`${cell(item.id)}\` ${cell(item.title)} | ${mark} | ${item.count} | ${detail} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

/** Whether XML 1.0 can carry a character at all (most control characters it cannot, even escaped). */
function xmlSafe(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function escapeXml(text: string): string {
  return [...text]
    .map((char) => (xmlSafe(char) ? char : '?'))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The record as JUnit XML: one testcase per item. */
export function coverageJunit(record: CoverageRecord): string {
  const { summary } = record;
  const cases = record.items.map((item) => {
    const open = `    <testcase classname="interface-coverage.${escapeXml(item.kind)}" name="${escapeXml(item.id)}" time="0">`;
    if (item.status === 'exercised')
      return `${open}<system-out>${escapeXml(`${item.count}x, first: ${exampleText(item.first)}`)}</system-out></testcase>`;
    if (item.status === 'skipped')
      return `${open}<skipped message="${escapeXml(item.reason ?? 'skipped')}"/></testcase>`;
    return `${open}<failure message="${escapeXml(`not exercised: ${item.title}`)}" type="not-exercised">${escapeXml(`${item.title} (${item.source}, openapi/interface.md)`)}</failure></testcase>`;
  });
  const counts = `tests="${summary.items}" failures="${summary.notExercised}" skipped="${summary.skipped}" time="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="interface-coverage" ${counts}>`,
    `  <testsuite name="interface-coverage (${escapeXml(record.source)})" ${counts} timestamp="${record.generatedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The record as a CTRF report (ctrf.io: `results.tool`, `summary`, `tests`); `start` and `stop` are the record's time. */
export function coverageCtrf(record: CoverageRecord) {
  const at = Date.parse(record.generatedAt);
  const { summary } = record;
  return {
    results: {
      tool: { name: `petstore interface coverage (${record.source})` },
      summary: {
        tests: summary.items,
        passed: summary.exercised,
        failed: summary.notExercised,
        skipped: summary.skipped,
        pending: 0,
        other: 0,
        start: at,
        stop: at,
      },
      tests: record.items.map((item) => ({
        name: item.id,
        status: { exercised: 'passed', skipped: 'skipped', 'not-exercised': 'failed' }[item.status],
        duration: 0,
        suite: item.kind,
        message:
          item.status === 'exercised'
            ? `${item.count}x, first: ${exampleText(item.first)}`
            : item.status === 'skipped'
              ? (item.reason ?? 'skipped')
              : `not exercised: ${item.title}`,
      })),
    },
  };
}

/** The record as text in one format (JSON and CTRF pretty-printed). */
export function formatCoverage(record: CoverageRecord, format: CoverageFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(record, null, 2)}\n`;
    case 'markdown':
      return coverageMarkdown(record);
    case 'junit':
      return coverageJunit(record);
    case 'ctrf':
      return `${JSON.stringify(coverageCtrf(record), null, 2)}\n`;
  }
}

/** The format a file name suggests: `.md`, `.xml`, `.ctrf.json`; else JSON. */
export function coverageFormatOf(path: string): CoverageFormat {
  if (/\.(md|markdown)$/i.test(path)) return 'markdown';
  if (/\.xml$/i.test(path)) return 'junit';
  if (/\.ctrf\.json$/i.test(path)) return 'ctrf';
  return 'json';
}
