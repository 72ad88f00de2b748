/**
 * bench/throughput.svg: requests per second of every server on every request, as grouped
 * horizontal bars. Hand-written SVG: no chart library, and the file diffs readably.
 */
import type { TargetId } from './servers.ts';
import { targetLabels } from './servers.ts';
import type { ThroughputResult } from './throughput.ts';

const colours: Record<TargetId, string> = {
  fake: '#2f9e44',
  wiremock: '#e8590c',
  'prism-silent': '#1971c2',
  'prism-default': '#74c0fc',
  ceiling: '#adb5bd',
};

/** Text made safe inside an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A chart's opening: the SVG element, its title (what a screen reader and a hover say), a white
 * ground, the heading and, under it, `subtitle` (when and where it was measured).
 */
export function chartOpening(
  size: { readonly width: number; readonly height: number },
  title: string,
  heading: string,
  subtitle: string,
): string[] {
  const { width, height } = size;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<title>${escapeXml(title)} (${escapeXml(subtitle)})</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="16" font-weight="600">${escapeXml(heading)}</text>`,
    `<text x="16" y="42" fill="#555">${escapeXml(subtitle)}</text>`,
  ];
}

/** The chart as SVG text; `subtitle` says when and where it was measured. */
export function throughputChart(result: ThroughputResult, subtitle: string): string {
  const width = 860;
  const left = 270;
  const right = 90;
  const barHeight = 15;
  const barGap = 3;
  const groupGap = 22;
  const top = 78;
  const plotWidth = width - left - right;
  const targets = result.targets;
  const max = Math.max(
    1,
    ...result.requests.flatMap((request) =>
      targets.map((target) => result.cells[request.id]?.[target]?.requestsPerSecond ?? 0),
    ),
  );
  const groupHeight = targets.length * (barHeight + barGap) - barGap;
  const height = top + result.requests.length * (groupHeight + groupGap) + 10;
  const parts = chartOpening(
    { width, height },
    'Requests per second by server and request',
    `Requests per second, ${result.connections} connections, median of the rounds`,
    subtitle,
  );
  targets.forEach((target, index) => {
    const x = 16 + index * 205;
    parts.push(
      `<rect x="${x}" y="54" width="12" height="12" fill="${colours[target]}"/>`,
      `<text x="${x + 17}" y="64">${escapeXml(targetLabels[target])}</text>`,
    );
  });
  result.requests.forEach((request, groupIndex) => {
    const groupTop = top + groupIndex * (groupHeight + groupGap);
    parts.push(
      `<text x="${left - 10}" y="${groupTop + groupHeight / 2 + 4}" text-anchor="end" font-weight="600">${escapeXml(request.label)}</text>`,
    );
    targets.forEach((target, index) => {
      const value = result.cells[request.id]?.[target]?.requestsPerSecond;
      const y = groupTop + index * (barHeight + barGap);
      const barWidth = value === undefined ? 0 : Math.max(1, (value / max) * plotWidth);
      parts.push(
        `<rect x="${left}" y="${y}" width="${barWidth.toFixed(1)}" height="${barHeight}" fill="${colours[target]}"/>`,
        `<text x="${(left + barWidth + 5).toFixed(1)}" y="${y + barHeight - 3}" fill="#222">${value === undefined ? 'n/a' : Math.round(value).toLocaleString('en-US')}</text>`,
      );
    });
  });
  parts.push(
    `<line x1="${left}" y1="${top - 6}" x2="${left}" y2="${height - 10}" stroke="#868e96"/>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
