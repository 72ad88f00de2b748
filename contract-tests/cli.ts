#!/usr/bin/env node
/**
 * `npm run contract`: checks a server against the interface (see contract-tests/README.md).
 * @example PETSTORE_API_KEY=... npm run contract -- --base-url https://staging.example.com/v1
 */
import { main } from './cli/main.ts';
import { useColour } from './report/console-report.ts';
import { createRedactor } from './report/redact.ts';

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  colour: useColour(process.stdout, process.env),
};

// Even a bug in the harness must not print the key: its stack may quote a server's answer.
const redact = createRedactor(process.env.PETSTORE_API_KEY?.trim() ?? '');

main(process.argv.slice(2), process.env, io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug in the harness itself: say so, never leave a stack without context.
    process.stderr.write(
      redact(
        `petstore-contract: internal error, please report it: ${(error as Error)?.stack ?? String(error)}\n`,
      ),
    );
    process.exitCode = 2;
  },
);
