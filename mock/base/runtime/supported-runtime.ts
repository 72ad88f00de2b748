/**
 * The Node.js and vitest the package's helpers need, checked where they run, so that a version
 * that would let a failure pass silently fails the run instead, with one line saying what to
 * install. Node 22.12+ (msw 3's minimum, `engines`: on Node 20 every request through the Node
 * door fails on `Promise.withResolvers`). vitest 5, the first whose run fails when a globalSetup
 * teardown throws (`Vitest.close()` passes teardown errors to `_checkUnhandledErrors`); 4.1 logs
 * them as `error during close` and exits 0, so an unmet coverage requirement in the teardown
 * passed, and npm picks 4.1 on Node 20 (vitest 5's `engines` say 22.12), whatever the peer range.
 * Browser-safe: Node's modules come from `process.getBuiltinModule`; outside Node nothing is
 * checked.
 */

/** The vitest range the helpers need; package.json's `peerDependencies` says the same (a test checks). */
export const supportedVitest = '^5.0.0';

/** The oldest Node.js the package runs on; package.json's `engines` says the same (a test checks). */
export const supportedNode = '22.12.0';

/** What the one-line refusals tell a user to install. */
const installVitest = 'npm install --save-dev vitest@^5.1.1';
const installNode =
  'put Node.js 22.12+ first on PATH (nvm, fnm, Volta), or `npm install --save-dev node@24` so that npm scripts run on it';

/** A helper refused to run on a Node.js or vitest the package does not support. */
export class UnsupportedRuntimeError extends Error {
  override readonly name = 'UnsupportedRuntimeError';
}

/** The versions a check looks at; `vitest` is undefined outside vitest. */
export interface RuntimeVersions {
  readonly node: string | undefined;
  readonly vitest: string | undefined;
}

/** [major, minor, patch] of a version string such as `22.12.0` or `v20.20.2`. */
function parts(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.replace(/^v/, '').split(/[.-]/).map(Number);
  return [major, minor, patch];
}

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Why `who` (`petstore-fake: createFake`, `petstore-contract`) cannot run on Node.js `node`, in
 * one line saying what to install; undefined when it can. The bins call it before loading
 * anything else, so it uses nothing an old Node.js lacks.
 */
export function nodeProblem(who: string, node: string): string | undefined {
  if (atLeast(node, supportedNode)) return undefined;
  return `${who} needs Node.js ${supportedNode} or later, and this is ${node.replace(/^v/, '')}: ${installNode}.`;
}

/** Why `helper` cannot run on these versions, in one line; undefined when it can. */
export function runtimeProblem(helper: string, versions: RuntimeVersions): string | undefined {
  const oldNode =
    versions.node === undefined
      ? undefined
      : nodeProblem(`petstore-fake: ${helper}`, versions.node);
  if (oldNode !== undefined) return oldNode;
  const vitest = versions.vitest;
  // `^5.0.0`: 5.x from 5.0.0, no prerelease.
  if (vitest !== undefined && !(parts(vitest)[0] === 5 && !vitest.includes('-')))
    return `petstore-fake: ${helper} needs vitest ${supportedVitest}, and this is vitest ${vitest}${parts(vitest)[0] < 5 ? ', which lets an error thrown in a globalSetup teardown pass with exit code 0' : ''}: ${installVitest} (on Node.js ${supportedNode}+).`;
  return undefined;
}

/** The `version` of the nearest package.json named `name` at or above `file`, if any. */
function versionOfPackageAbove(file: string, name: string): string | undefined {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(file));
  } catch {
    return undefined;
  }
  for (let up = ''; up !== dir; dir = path.dirname(dir)) {
    up = dir;
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (manifest?.name === name && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here
    }
  }
  return undefined;
}

/**
 * The version of the vitest running this process, or undefined outside vitest. vitest sets
 * `VITEST` in its process and its workers, whose entry script lies in the vitest package; a
 * vitest started from a script of the user's is the one the project resolves.
 */
function runningVitest(): string | undefined {
  if (process.env.VITEST !== 'true') return undefined;
  const entry = process.argv[1];
  const fromEntry = entry === undefined ? undefined : versionOfPackageAbove(entry, 'vitest');
  if (fromEntry !== undefined) return fromEntry;
  try {
    const { createRequire } = process.getBuiltinModule('node:module');
    const manifest = createRequire(`${process.cwd()}/`)('vitest/package.json') as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    // Not resolvable: nothing to check against.
    return undefined;
  }
}

let checked: RuntimeVersions | undefined;

/**
 * Throws an UnsupportedRuntimeError, whose message is the one line saying what to install, when
 * `helper` runs on a Node.js older than the package supports or, unless `vitest` is false,
 * inside a vitest outside `supportedVitest`. In vitest's main process (where a globalSetup runs)
 * it also sets the exit code first: vitest 4 would print the error after the summary and still
 * exit 0.
 */
export function assertSupportedRuntime(helper: string, { vitest = true } = {}): void {
  // Outside Node (a browser) there is no Node.js and no vitest main process to check.
  if (typeof process === 'undefined' || typeof process.getBuiltinModule !== 'function') {
    if (typeof process !== 'undefined' && process.versions?.node !== undefined) {
      // Node without getBuiltinModule is older than 20.16: far older than supported.
      throw new UnsupportedRuntimeError(
        runtimeProblem(helper, { node: process.versions.node, vitest: undefined }),
      );
    }
    return;
  }
  checked ??= { node: process.versions.node, vitest: runningVitest() };
  const problem = runtimeProblem(helper, vitest ? checked : { ...checked, vitest: undefined });
  if (problem === undefined) return;
  if (checked.vitest !== undefined && !('__vitest_worker__' in globalThis)) process.exitCode = 1;
  throw new UnsupportedRuntimeError(problem);
}
