/**
 * Which stage of the fake a CPU profile's sample belongs to. A sample's function starts at a line
 * and column of the `npm start` bundle; the bundle's source map names the source file, and the
 * file's place in the tree names the stage: the HTTP door, the pipeline, each step or recorder
 * (one row per file of a step group, or per feature folder below one), the store, JSON in and out,
 * Node's own http and sockets, garbage collection. A step or recorder added tomorrow gets its own
 * row with no change here.
 */
import { SourceMap } from 'node:module';
import { relative, resolve } from 'node:path';

/** One node of a `.cpuprofile` (the parts read here). */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

/** A `.cpuprofile` as V8 writes it (times in µs of the monotonic clock `process.hrtime` reads). */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The rows every breakdown may have besides the fake's own files. */
export const fixedStages = {
  json: 'JSON in and out (parse, stringify)',
  node: "Node's http, net and streams (bare node:http pays these too)",
  gc: 'garbage collection',
  v8: 'V8 itself (compiler, runtime)',
  native: 'other native code',
} as const;

/** The HTTP door's row: its calls into Node's http (the socket write) stay in Node's row. */
const doorStage = 'HTTP door: read and write';

/** The stage of a source file of the project, by its path from the project root. */
export function stageOfSource(path: string): string {
  if (path.includes('node_modules/')) {
    const after = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const parts = after.split('/');
    const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    return `dependency ${name}`;
  }
  if (path === 'bench/json-frames.ts') return fixedStages.json;
  if (/(^|\/)lossless-json\.ts$/.test(path)) return fixedStages.json;
  const parts = path.replace(/\.ts$/, '').split('/');
  if (parts[0] !== 'mock') return path;
  const [, room, group, ...rest] = parts;
  if (room === 'doors') return group === 'http' ? doorStage : `door ${group}`;
  if (room === 'store') return 'store';
  if (room === 'steps' && group !== undefined) {
    if (group === 'routes') return 'routes (the operation handlers)';
    // A file of a step group is a row; a feature folder below the group is one row.
    return `step ${group}/${rest.length > 1 ? `${rest[0]}/` : (rest[0] ?? '')}`.replace(/\/$/, '');
  }
  if (room === 'pipeline') return 'pipeline (steps, context, slots)';
  if (room === 'core') return 'behaviour core (which pipeline)';
  if (room === 'base') return `base ${group ?? ''}`.trim();
  return parts.slice(1).join('/');
}

/**
 * A function that names the stage of one profile node; `undefined` is no work (idle). A node of
 * native code that it leaves to its caller (`inherit`) takes the stage of its nearest caller; a
 * node of Node's own library (`library`) too, unless that caller is the HTTP door or there is
 * none (the event loop, the HTTP parser): then it is Node's work, as in a bare node:http server.
 */
export type StageOf = (node: ProfileNode) => string | undefined | typeof inherit | typeof library;

/** What a StageOf answers for native code run on a caller's behalf (a RegExp, a socket write). */
export const inherit = Symbol("the caller's stage");

/**
 * What a StageOf answers for a function of Node's library (`node:*`): a `new URL()`, a Buffer
 * decode or an event emitted on the fake's behalf is the cost of the stage that called it, not
 * of Node's http.
 */
export const library = Symbol("Node's library, for its caller");

/** Where a function of the bundle comes from: its source file (from the project root) and line. */
export type SourceOf = (
  lineNumber: number,
  columnNumber: number,
) => { file: string; line: number } | undefined;

/** Reads the bundle's source map: `bundlePath` is the file the fake runs, `mapText` its `.map`. */
export function bundleSources(bundlePath: string, mapText: string, projectRoot: string): SourceOf {
  const map = new SourceMap(JSON.parse(mapText));
  const bundleDir = resolve(bundlePath, '..');
  return (lineNumber, columnNumber) => {
    const entry = map.findEntry(lineNumber, columnNumber) as {
      originalSource?: string;
      originalLine?: number;
    };
    const source = entry.originalSource;
    if (source === undefined) return undefined;
    const path = source.startsWith('file:') ? new URL(source).pathname : resolve(bundleDir, source);
    return { file: relative(projectRoot, path), line: (entry.originalLine ?? 0) + 1 };
  };
}

/**
 * Names stages by the bundle's source map (see bundleSources). `undefined` means the sample is no
 * work (idle).
 */
export function bundleStages(bundlePath: string, mapText: string, projectRoot: string): StageOf {
  const sourceOf = bundleSources(bundlePath, mapText, projectRoot);
  const bundleUrl = new URL(`file://${bundlePath}`).href;
  const cache = new Map<string, string>();
  return ({ callFrame }) => {
    const { functionName, url, lineNumber, columnNumber } = callFrame;
    if (url === '') {
      if (functionName === '(idle)' || functionName === '(root)') return undefined;
      if (functionName === '(garbage collector)') return fixedStages.gc;
      if (functionName === '(program)') return fixedStages.v8;
      // A RegExp, a socket write, the HTTP parser, a TextDecoder: the caller's work.
      return inherit;
    }
    if (url.startsWith('node:')) return library;
    if (url.endsWith('/bench/json-frames.ts')) return fixedStages.json;
    if (url !== bundleUrl) return stageOfSource(relative(projectRoot, new URL(url).pathname));
    const key = `${lineNumber}:${columnNumber}`;
    let stage = cache.get(key);
    if (stage === undefined) {
      const source = sourceOf(lineNumber, columnNumber);
      stage = source === undefined ? 'bundle (unmapped)' : stageOfSource(source.file);
      cache.set(key, stage);
    }
    return stage;
  };
}

/** CPU time per stage (µs) of the samples taken between `from` and `to` (µs, monotonic). */
export function timePerStage(
  profile: CpuProfile,
  stageOf: StageOf,
  from: number,
  to: number,
): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const own = new Map<number, ReturnType<StageOf>>();
  for (const node of profile.nodes) own.set(node.id, stageOf(node));
  const stageOfNode = new Map<number, string | undefined>();
  for (const node of profile.nodes) {
    let id: number | undefined = node.id;
    let stage = own.get(id);
    let inLibrary = false;
    let walked = false;
    while ((stage === inherit || stage === library) && id !== undefined) {
      inLibrary ||= stage === library;
      walked = true;
      id = parent.get(id);
      stage = id === undefined ? undefined : own.get(id);
    }
    // Called by nothing of the fake's (the event loop, the parser), or by the door on Node's behalf.
    if (walked && stage === undefined) stage = inLibrary ? fixedStages.node : fixedStages.native;
    else if (inLibrary && stage === doorStage) stage = fixedStages.node;
    stageOfNode.set(node.id, stage as string | undefined);
  }
  const spent = new Map<string, number>();
  let at = profile.startTime;
  for (const [index, sample] of profile.samples.entries()) {
    // A delta is the time since the previous sample: it belongs to this sample.
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < from || at > to) continue;
    const stage = stageOfNode.get(sample);
    if (stage === undefined) continue;
    spent.set(stage, (spent.get(stage) ?? 0) + delta);
  }
  return spent;
}
