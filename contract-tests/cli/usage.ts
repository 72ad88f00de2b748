/** The CLI's help text. */
export const usage = `Usage: npm run contract -- (--base-url <url> | --fake | --prism-mock) [options]

Checks a server against petstore-interface.md. The API key is read from the
PETSTORE_API_KEY environment variable only; it is never printed.

Target (one of):
  --base-url <url>     the server's base address, ending in /v1
  --fake               the project's fake, started here on a free port (demo keys)
  --prism-mock         \`prism mock\` of openapi/petstore.yaml (stateless checks only)

Options:
  --via-prism          pass exchanges through \`prism proxy --errors\` as a second opinion
  --allow-writes       create pets on a non-loopback server (names start with contract-<run id>-)
  --read-only          never create pets, even on a loopback server
  --rate-limits        also spend the key's window once on purpose (one 429, honoured)
  --plan <name>        the key's plan (free, pro, business): X-RateLimit-Limit must match it
  --budget <n>         most requests to send, retries included (default 60: a Free key's minute)
  --timeout <ms>       per-request timeout (default 10000)
  --max-wait <s>       longest wait for Retry-After or X-RateLimit-Reset (default 90)
  --seed <n>           replay a run (printed at the start and with every failure)
  --runs <n>           property runs per property check (default: as many as the budget allows)
  --only <ids>         run only these checks: comma-separated ids or prefixes ending in "."
                       (e.g. listPets.); the every-response checks always run
  --skip <ids>         never run these checks (same syntax), e.g. a deviation you accept
  --junit <file>       also write a JUnit XML report
  --strict             advisory checks fail the run too
  --help               this text

Exit codes: 0 the server conforms, 1 a rule is broken, 2 usage or connection error
(or the key's rate limit left checks unfinished).`;
