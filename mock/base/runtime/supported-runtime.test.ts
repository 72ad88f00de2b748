/**
 * Which Node.js and vitest versions the helpers refuse, with what line, and that package.json
 * states the same range to npm. The refusal in a user's project, on Node 20 and on Node 24 with
 * the vitest npm picks on Node 20, is scripts/consumer-versions.test.ts.
 */
import { expect, test } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import {
  assertSupportedRuntime,
  runtimeProblem,
  supportedNode,
  supportedVitest,
} from './supported-runtime.ts';

test('package.json states the vitest range as an optional peer dependency, and the Node range in engines', () => {
  expect(packageJson.peerDependencies).toEqual({ vitest: supportedVitest });
  expect(packageJson.peerDependenciesMeta).toEqual({ vitest: { optional: true } });
  expect(packageJson.engines.node).toBe(`>=${supportedNode}`);
  // The vitest this repository tests with is in the range.
  expect(packageJson.devDependencies.vitest).toMatch(/^\^5\./);
});

test('a Node.js older than 22.12 is refused in one line saying what to install', () => {
  for (const node of ['v20.20.2', '22.11.0', '18.20.0']) {
    const problem = runtimeProblem('expectInterfaceCoverage', { node, vitest: undefined });
    expect(problem).toBe(
      `petstore-fake: expectInterfaceCoverage needs Node.js 22.12.0 or later, and this is ${node.replace('v', '')}: put Node.js 22.12+ first on PATH (nvm, fnm, Volta), or \`npm install --save-dev node@24\` so that npm scripts run on it.`,
    );
    expect(problem).not.toContain('\n');
  }
  for (const node of ['22.12.0', 'v24.21.0', '26.0.0'])
    expect(runtimeProblem('mergePacts', { node, vitest: undefined })).toBeUndefined();
});

test('a vitest outside ^5.0.0 is refused in one line; vitest 4 is told why', () => {
  expect(runtimeProblem('mergeCoverage', { node: '24.21.0', vitest: '4.1.12' })).toBe(
    'petstore-fake: mergeCoverage needs vitest ^5.0.0, and this is vitest 4.1.12, which lets an error thrown in a globalSetup teardown pass with exit code 0: npm install --save-dev vitest@^5.1.1 (on Node.js 22.12.0+).',
  );
  for (const vitest of ['3.2.4', '6.0.0', '5.0.0-beta.7'])
    expect(runtimeProblem('mergeCoverage', { node: '24.21.0', vitest })).toMatch(
      new RegExp(
        `^petstore-fake: mergeCoverage needs vitest \\^5\\.0\\.0, and this is vitest ${vitest.replaceAll('.', '\\.')}[,:] `,
      ),
    );
  for (const vitest of ['5.0.0', '5.1.1', '5.9.0'])
    expect(runtimeProblem('mergeCoverage', { node: '24.21.0', vitest })).toBeUndefined();
  // Node first: on Node 20 with vitest 4, installing vitest 5 alone would not help.
  expect(runtimeProblem('mergeCoverage', { node: '20.20.2', vitest: '4.1.12' })).toMatch(
    /needs Node\.js 22\.12\.0 or later/,
  );
});

test('this run (Node 24, vitest 5) is supported', () => {
  expect(() => assertSupportedRuntime('expectInterfaceCoverage')).not.toThrow();
});
