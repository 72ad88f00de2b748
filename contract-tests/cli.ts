#!/usr/bin/env node
/**
 * `npm run contract`: checks a server against petstore-interface.md (see contract-tests/README.md).
 * @example PETSTORE_API_KEY=... npm run contract -- --base-url https://staging.example.com/v1
 */
import { main } from './cli/main.ts';

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

main(process.argv.slice(2), process.env, io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug in the harness itself: say so, never leave a stack without context.
    process.stderr.write(
      `petstore-contract: internal error, please report it: ${(error as Error)?.stack ?? String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
