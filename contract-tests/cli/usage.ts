/**
 * The CLI's help text, naming the command as the user invoked it and where its docs are.
 * @example usage('petstore-contract', 'node_modules/petstore-fake/contract-tests/README.md')
 */
export function usage(command: string, docs: string): string {
  return `Usage: ${command} (--base-url <url> | --fake | --prism-mock) [options]
       ${command} proxy --target <url> [options] [-- <command>]   (see proxy --help)
       ${command} calibrate --base-url <url> [options]   (see calibrate --help)

Checks a server against the Pet Store interface (docs: ${docs}).
The API key is read from the PETSTORE_API_KEY environment variable only; it is
never printed, in any encoding.

Target (one of):
  --base-url <url>     the server's base address, ending in /v1
  --fake               the project's fake, started here on a free port (demo keys)
  --prism-mock         \`prism mock\` of openapi/petstore.yaml (stateless checks only)

Options:
  --via-prism          pass exchanges through \`prism proxy\`: its validator judges every answer
  --allow-writes       create pets on a non-loopback server (names start with contract-<run id>-)
  --read-only          never create pets, even on a loopback server
  --rate-limits        after every other check, spend what the key's window still holds
                       (X-RateLimit-Remaining), one refused request, one after Retry-After
  --plan <name>        the key's plan (free, pro, business): X-RateLimit-Limit must match it
  --plan2 <name>       the plan of the second key, PETSTORE_API_KEY_2 (set, it checks that
                       the two keys have independent windows; with --fake: that demo key)
  --budget <n>         most requests to send, retries included; too small for what was
                       asked exits 2 naming the number needed. Default: 60 (a Free key's
                       minute), 100 runs per property on loopback when the key's window
                       holds them, + X-RateLimit-Limit + 2 with --rate-limits
  --timeout <ms>       per-request timeout, body included (default 10000)
  --max-body-bytes <n> most bytes read of an answer (default 4194304); more: no verdict
  --max-wait <s>       longest wait for Retry-After or X-RateLimit-Reset (default 90)
  --max-duration <s>   the run's bound (default 300): past it, no request and no wait;
                       the checks left could not run (exit 2, naming the wait)
  --seed <n>           replay a run (printed at the start and with every failure)
  --runs <n>           property runs per property check (default: as the budget allows,
                       at most 100; each property's edge cases always run)
  --only <ids>         run only these checks: comma-separated ids or prefixes ending in "."
                       (e.g. listPets.); the every-response checks always run
  --skip <ids>         never run these checks (same syntax), e.g. a deviation you accept
  --junit <file>       also write a JUnit XML report
  --log <file>         write every request and answer as JSON lines (key redacted)
  --strict             advisory checks fail the run too
  --version            the harness's version
  -h, --help           this text

Exit codes: 0 the server conforms (every selected, applicable check ran and passed),
1 a rule is broken, 2 no verdict: usage or connection error, or a selected check
could not run (budget, missing data, the key's rate limit). Colour only on a
terminal; NO_COLOR turns it off.`;
}
