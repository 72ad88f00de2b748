/**
 * bench/stages.svg: the fake's CPU per request split by stage, one stacked bar per side-by-side
 * request. The stages that cost most over all requests get a colour each, the same in every bar;
 * the rest are one grey "other" block. Hand-written SVG, as the throughput chart is.
 */
import { chartOpening, escapeXml } from './chart.ts';
import { fixedStages } from './stage-attribution.ts';
import type { StagesResult } from './stages.ts';

/** Distinct colours for the costliest stages (colour-blind safe first, Okabe-Ito and Tableau). */
const palette = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#4e79a7',
  '#f28e2b',
  '#76b7b2',
  '#b07aa1',
  '#9c755f',
];
const otherColour = '#ced4da';

/** The rows every server pays in some form (Node, V8, GC): drawn after the fake's own stages. */
const shared: readonly string[] = Object.values(fixedStages);

/**
 * The stages that get their own colour: the fake's own, costliest over all requests first, then
 * the shared ones, so the fake's own work lines up at the left of every bar.
 */
function colouredStages(result: StagesResult): string[] {
  const total = new Map<string, number>();
  for (const breakdown of result.breakdowns)
    for (const { stage, share } of breakdown.stages)
      total.set(stage, (total.get(stage) ?? 0) + share);
  return [...total.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, palette.length)
    .map(([stage]) => stage)
    .sort((a, b) => Number(shared.includes(a)) - Number(shared.includes(b)));
}

/** The chart as SVG text; `subtitle` says when and where it was measured. */
export function stagesChart(result: StagesResult, subtitle: string): string {
  const width = 900;
  const left = 300;
  const right = 70;
  const top = 62;
  const barHeight = 22;
  const barGap = 14;
  const plotWidth = width - left - right;
  const named = colouredStages(result);
  const colourOf = (stage: string) => palette[named.indexOf(stage)] ?? otherColour;
  const max = Math.max(1, ...result.breakdowns.map((breakdown) => breakdown.cpuUsPerRequest ?? 0));
  const barsHeight = result.breakdowns.length * (barHeight + barGap);
  const legendTop = top + barsHeight + 16;
  const legendRows = Math.ceil((named.length + 1) / 2);
  const height = legendTop + legendRows * 18 + 12;
  const parts = chartOpening(
    { width, height },
    "The fake's CPU per request by stage",
    `The fake's CPU per request by stage (µs, profiled pass, ${result.connections} connections)`,
    subtitle,
  );
  result.breakdowns.forEach((breakdown, index) => {
    const y = top + index * (barHeight + barGap);
    parts.push(
      `<text x="${left - 10}" y="${y + barHeight / 2 + 4}" text-anchor="end" font-weight="600">${escapeXml(breakdown.request.label)}</text>`,
    );
    const perRequest = breakdown.cpuUsPerRequest ?? 0;
    let x = left;
    let other = 0;
    for (const { stage, share } of breakdown.stages) if (!named.includes(stage)) other += share;
    for (const stage of named) {
      const share = breakdown.stages.find((s) => s.stage === stage)?.share ?? 0;
      const w = (share * perRequest * plotWidth) / max;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${colourOf(stage)}"><title>${escapeXml(`${stage}: ${(share * perRequest).toFixed(1)} µs (${(share * 100).toFixed(1)}%)`)}</title></rect>`,
      );
      x += w;
    }
    const w = (other * perRequest * plotWidth) / max;
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${otherColour}"><title>other stages: ${(other * perRequest).toFixed(1)} µs</title></rect>`,
      `<text x="${(x + w + 6).toFixed(1)}" y="${y + barHeight / 2 + 4}">${perRequest.toFixed(0)} µs</text>`,
    );
  });
  [...named, 'other stages'].forEach((stage, index) => {
    const x = 16 + (index % 2) * 440;
    const y = legendTop + Math.floor(index / 2) * 18;
    parts.push(
      `<rect x="${x}" y="${y}" width="12" height="12" fill="${index < named.length ? colourOf(stage) : otherColour}"/>`,
      `<text x="${x + 17}" y="${y + 10}">${escapeXml(stage)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
