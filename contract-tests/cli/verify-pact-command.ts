/**
 * `petstore-contract verify-pact <file> --base-url <url>`: replays a Pact V4 file (one the fake
 * wrote with `--pact-out` or `GET /__control/pact`) against any server, its provider states set
 * up through the interface itself, within a request budget. Reports as the run does: one line
 * per interaction, a summary, exit 0 every interaction passed, 1 one failed, 2 no verdict (an
 * interaction could not run, or a usage problem).
 */
import { readFileSync } from 'node:fs';
import { type FlagSpecs, flagHelp, parseFlags, parseInteger } from '../../mock/cli/command-line.ts';
import { PactFileError, readPact } from '../pact/read-pact.ts';
import { type InteractionResult, replayPact } from '../pact/replay-pact.ts';
import { createKeyRedactor } from '../report/redact.ts';
import { normaliseBaseUrl, urlTarget } from '../targets/url-target.ts';
import type { CliIo } from './cli-io.ts';
import { apiKeyFrom, timeoutFlag, writesFrom } from './flag-values.ts';
import { ContractUsageError, toolName } from './usage-error.ts';

/** Every flag of verify-pact, with its help. */
const verifyPactFlags = {
  'base-url': { type: 'string', value: '<url>', help: "the server's base address, ending in /v1" },
  'allow-writes': {
    type: 'boolean',
    help: 'create pets on a non-loopback server (states like "pet 42 exists")',
  },
  'read-only': { type: 'boolean', help: 'never create pets (those states are skipped)' },
  budget: {
    type: 'string',
    default: '200',
    value: '<n>',
    help: 'most requests, state setup included (default 200)',
  },
  timeout: timeoutFlag,
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies FlagSpecs;

function verifyPactUsage(command: string): string {
  return `Usage: ${command} verify-pact <pact-file> --base-url <url> [options]

Replays a Pact V4 file's HTTP interactions against the server, setting each
provider state up through the interface itself (a pet that must exist is
created with POST; a spent window is spent with GETs), and checks every answer
against the interaction's response and matching rules. A state the interface
cannot make is skipped with the reason. The key comes from PETSTORE_API_KEY.
Exit 0 all passed, 1 one failed, 2 no verdict.

Options:
${flagHelp(verifyPactFlags, 25)}`;
}

const labels = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

/** Whether an error is the file system's (ENOENT, EACCES, EISDIR...). */
const isFileError = (error: unknown) =>
  typeof (error as NodeJS.ErrnoException).code === 'string' &&
  (error as NodeJS.ErrnoException).syscall !== undefined;

function formatInteraction(result: InteractionResult): string {
  return [
    `  ${labels[result.verdict]}  ${result.description}`,
    ...result.reasons.map((reason) => `          - ${reason}`),
  ].join('\n');
}

/** Runs `verify-pact`; resolves to the exit code. */
export async function runVerifyPactCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    verifyPactFlags,
    (message) => new ContractUsageError(`verify-pact: ${message}`),
    true,
  );
  const command = io.command ?? 'npm run contract --';
  if (values.help === true) {
    io.out(verifyPactUsage(command));
    return 0;
  }
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new ContractUsageError(
      'verify-pact: give exactly one pact file: verify-pact <file> --base-url <url>',
    );
  if (values['base-url'] === undefined)
    throw new ContractUsageError(
      'verify-pact: --base-url <url> is required (the base URL, ending in /v1)',
    );
  const key = apiKeyFrom(env);
  const redact = createKeyRedactor(key);
  let interactions: ReturnType<typeof readPact>;
  try {
    interactions = readPact(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    // A pact that is not one, or a field the replay cannot trust: one line, nothing sent.
    if (!(error instanceof PactFileError || error instanceof SyntaxError || isFileError(error)))
      throw error;
    const message = (error as Error).message.replace(/\s+/g, ' ');
    io.err(redact(`${toolName}: verify-pact: cannot read ${file}: ${message}`));
    return 2;
  }
  const out = (line: string) => io.out(redact(line));
  const target = urlTarget(normaliseBaseUrl(values['base-url']), key);
  const writes = writesFrom(values) ?? target.loopback;
  const budget = parseInteger('--budget', values.budget, { min: 1, max: 1_000_000 }) ?? 200;
  const timeoutMs = parseInteger('--timeout', values.timeout, { min: 1, max: 600_000 }) ?? 10_000;
  out(
    `${toolName}: verifying ${file} (${interactions.length} interactions) against ${target.baseUrl} (${writes ? 'writes on' : 'read-only'})`,
  );
  const replay = await replayPact(interactions, {
    baseUrl: target.baseUrl,
    apiKey: key,
    writes,
    budget,
    timeoutMs,
    onResult: (result) => out(formatInteraction(result)),
  });
  const count = (verdict: InteractionResult['verdict']) =>
    replay.results.filter((result) => result.verdict === verdict).length;
  const [passed, failed, skipped] = [count('pass'), count('fail'), count('skip')];
  out(
    `${toolName}: ${passed} passed, ${failed} failed, ${skipped} skipped; ${replay.requests} requests sent`,
  );
  if (failed > 0) {
    out(`${toolName}: the server breaks the pact (${failed} interaction(s))`);
    return 1;
  }
  if (skipped > 0 || passed === 0) {
    io.err(
      redact(
        `${toolName}: incomplete, no verdict: ${skipped} interaction(s) could not run${passed === 0 ? ' and none passed' : ''}`,
      ),
    );
    return 2;
  }
  out(`${toolName}: the server honours the pact (${passed} interactions)`);
  return 0;
}
