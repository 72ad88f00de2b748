#!/usr/bin/env node
/**
 * `npm run contract`: checks a server against the interface (see contract-tests/README.md).
 * @example PETSTORE_API_KEY=... npm run contract -- --base-url https://staging.example.com/v1
 */
import { internalErrorMessage } from './cli/internal-error.ts';
import { main } from './cli/main.ts';
import { useColour } from './report/console-report.ts';

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  colour: useColour(process.stdout, process.env),
  // Only the proxy, which runs until told to stop, takes over SIGINT and SIGTERM.
  untilStopped: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};

main(process.argv.slice(2), process.env, io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug in the harness itself: say so, never leave a stack without context.
    process.stderr.write(`${internalErrorMessage(error, process.env)}\n`);
    process.exitCode = 2;
  },
);
