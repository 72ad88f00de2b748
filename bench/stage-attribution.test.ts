import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import {
  bundleStages,
  type CpuProfile,
  fixedStages,
  type ProfileNode,
  stageOfSource,
  timePerStage,
} from './stage-attribution.ts';

test('a file of a step group is a row of its own, a feature folder below a group is one row', () => {
  expect(stageOfSource('mock/steps/policies/auth.ts')).toBe('step policies/auth');
  expect(stageOfSource('mock/steps/qa/pact/pact-shapes.ts')).toBe('step qa/pact');
  expect(stageOfSource('mock/steps/qa/pact/recorder/deep.ts')).toBe('step qa/pact');
  expect(stageOfSource('mock/store/pet-store.ts')).toBe('store');
  expect(stageOfSource('mock/doors/http/http-server.ts')).toBe('HTTP door: read and write');
  expect(stageOfSource('mock/base/contract/lossless-json.ts')).toBe(fixedStages.json);
  expect(stageOfSource('node_modules/@msw/data/lib/index.js')).toBe('dependency @msw/data');
  expect(stageOfSource('node_modules/a/node_modules/rettime/x.js')).toBe('dependency rettime');
});

const frame = (
  id: number,
  functionName: string,
  url: string,
  children: number[] = [],
  lineNumber = 0,
  columnNumber = 0,
): ProfileNode => ({ id, callFrame: { functionName, url, lineNumber, columnNumber }, children });

test('native code counts for its nearest caller; idle and samples outside the window count for none', () => {
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 3, 6]),
      frame(2, 'write', 'node:net', [4]),
      frame(3, 'authenticate', 'file:///p/mock/steps/policies/auth.ts', [5]),
      frame(4, 'writeUtf8String', ''),
      frame(5, 'RegExp: ^Bearer', ''),
      frame(6, '(idle)', ''),
    ],
    startTime: 1_000,
    // Sample times: 1010 (before the window), 1020, 1030, 1040, 1050, 1060 (after it).
    samples: [4, 4, 5, 6, 3, 4],
    timeDeltas: [10, 10, 10, 10, 10, 10],
  };
  const stageOf = bundleStages('/p/bundle.mjs', '{"version":3,"sources":[],"mappings":""}', '/p');
  const spent = timePerStage(profile, stageOf, 1_015, 1_055);
  expect(Object.fromEntries(spent)).toEqual({
    [fixedStages.node]: 10,
    'step policies/auth': 20,
  });
});

test("Node's library counts for the stage that called it, but the HTTP door's calls and the event loop's stay Node's", () => {
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 3, 7]),
      // The event loop and the parser: nothing of the fake's on the stack.
      frame(2, 'parserOnHeadersComplete', 'node:_http_common', [8]),
      frame(3, 'answer', 'file:///p/mock/core/assembly.ts', [4]),
      frame(4, 'URL', 'node:internal/url', [5]),
      frame(5, 'parse', ''),
      frame(7, 'writeAnswer', 'file:///p/mock/doors/http/http-server.ts', [9]),
      frame(8, 'emit', 'node:events'),
      frame(9, 'end', 'node:_http_outgoing', [10]),
      frame(10, 'writeUtf8String', ''),
    ],
    startTime: 0,
    samples: [5, 4, 10, 9, 8, 7],
    timeDeltas: [10, 10, 10, 10, 10, 10],
  };
  const stageOf = bundleStages('/p/bundle.mjs', '{"version":3,"sources":[],"mappings":""}', '/p');
  const spent = timePerStage(profile, stageOf, 0, 100);
  expect(Object.fromEntries(spent)).toEqual({
    // URL parsing, native code included, is the core's own cost.
    'behaviour core (which pipeline)': 20,
    // The door's write and the parser's emit are paid by a bare node:http server too.
    [fixedStages.node]: 30,
    'HTTP door: read and write': 10,
  });
});

test("a function of the bundle is named by its source file through the bundle's source map", async () => {
  const root = mkdtempSync(join(tmpdir(), 'stage-attribution-'));
  try {
    const files = {
      'mock/steps/qa/record-step.ts':
        'export function recordShape(value: unknown) { return JSON.stringify(value).length; }\n',
      'mock/doors/http/door.ts':
        "import { recordShape } from '../../steps/qa/record-step.ts';\nexport function readRequest(text: string) { return recordShape(text) + 1; }\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const bundle = join(root, 'node_modules/.cache/bundle.mjs');
    await build({
      entryPoints: [join(root, 'mock/doors/http/door.ts')],
      bundle: true,
      format: 'esm',
      outfile: bundle,
      sourcemap: 'linked',
      logLevel: 'silent',
    });
    const output = readFileSync(bundle, 'utf8').split('\n');
    // Where V8 would say each function starts: its line and column in the bundle.
    const at = (name: string) => {
      const line = output.findIndex((text) => text.includes(`function ${name}(`));
      return { lineNumber: line, columnNumber: (output[line] as string).indexOf('function') };
    };
    const stageOf = bundleStages(bundle, readFileSync(`${bundle}.map`, 'utf8'), root);
    const url = new URL(`file://${bundle}`).href;
    const node = (name: string) => {
      const { lineNumber, columnNumber } = at(name);
      return frame(1, name, url, [], lineNumber, columnNumber);
    };
    expect(stageOf(node('recordShape'))).toBe('step qa/record-step');
    expect(stageOf(node('readRequest'))).toBe('HTTP door: read and write');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
