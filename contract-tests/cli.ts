#!/usr/bin/env node
/**
 * `npm run contract`: checks a server against the interface (see contract-tests/README.md).
 * @example PETSTORE_API_KEY=... npm run contract -- --base-url https://staging.example.com/v1
 */
import { invokedAs } from '../mock/internal/entry.ts';
import { harnessDocs } from './cli/docs-path.ts';
import { internalErrorMessage } from './cli/internal-error.ts';
import { main } from './cli/main.ts';
import { untilStopped } from './cli/stop-signals.ts';
import { useColour } from './report/console-report.ts';

/**
 * Runs `petstore-contract` with `argv` (the process's arguments by default) and exits with its
 * code: the installed bin (bin.ts) calls it once the Node.js version is checked,
 * `node contract-tests/cli.ts` runs it as the main module, and importing this file starts nothing.
 */
export function run(argv: readonly string[] = process.argv.slice(2)): void {
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    colour: useColour(process.stdout, process.env),
    // Only long-running commands take over SIGINT and SIGTERM and watch for their parent going.
    untilStopped,
    command: invokedAs(process.argv[1], 'petstore-contract', 'npm run contract --'),
    docs: harnessDocs(process.cwd()),
  };

  main(argv, process.env, io).then(
    // Exit now: a run stopped mid-way has checks still in flight that must not outlive its verdict
    // (stdout and stderr are written synchronously to files, pipes and terminals on POSIX).
    (code) => process.exit(code),
    (error: unknown) => {
      // A bug in the harness itself: say so, never leave a stack without context.
      process.stderr.write(`${internalErrorMessage(error, process.env)}\n`);
      process.exit(2);
    },
  );
}

if (import.meta.main) run();
