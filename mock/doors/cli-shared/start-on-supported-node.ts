/**
 * The first thing each bin runs. On a Node.js older than the package supports, the CLI would
 * fail far from the cause (msw on `Promise.withResolvers`, a stack trace) or, worse, run and
 * judge with a JSON parser that rounds int64 digits (Node 20's reviver has no source text).
 * So the bin checks the version before it loads anything that could fail there, and refuses in
 * one line saying what to install, exit 2. The bundle of this file targets old Node.js: it runs
 * where nothing else of the package can.
 */
import { nodeProblem } from '../../base/runtime/supported-runtime.ts';

/**
 * Runs `load` (a dynamic import of the CLI itself) on a supported Node.js; on another one prints
 * the one line and sets exit code 2 without loading it.
 * @example startOnSupportedNode('petstore-contract', () => import('./cli.ts'));
 */
export function startOnSupportedNode(tool: string, load: () => Promise<unknown>): void {
  const problem = nodeProblem(tool, process.versions.node);
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exitCode = 2;
    return;
  }
  // `load` imports the CLI and runs it; a module it cannot load is a broken install, said as such.
  load().catch((error: unknown) => {
    process.stderr.write(
      `${tool}: cannot load the command (${error instanceof Error ? error.message : String(error)}); reinstall the package\n`,
    );
    process.exitCode = 2;
  });
}
