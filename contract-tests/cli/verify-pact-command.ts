/**
 * `petstore-contract verify-pact <file> --base-url <url>`: replays a Pact V4 file (one the fake
 * wrote with `--pact-out` or `GET /__control/pact`) against any server, its provider states set
 * up through the interface itself, within a request budget. Reports as the run does: one line
 * per interaction, a summary, exit 0 every interaction passed, 1 one failed, 2 no verdict (an
 * interaction could not run, or a usage problem). A state the user accepts with `--pending` (one
 * that cannot be set up without harm, such as a banned key) leaves its interactions pending: not
 * sent, reported, and not held against the exit code.
 */
import { readFileSync } from 'node:fs';
import {
  type FlagSpecs,
  flagHelp,
  parseFlags,
  parseInteger,
  parseJson,
} from '../../mock/internal/entry.ts';
import { ContractUsageError, toolName } from '../base/usage-error.ts';
import { PactFileError, readPact } from '../pact/read-pact.ts';
import { type InteractionResult, replayPact } from '../pact/replay-pact.ts';
import { createKeyRedactor } from '../report/redact.ts';
import { normaliseBaseUrl, urlTarget } from '../targets/url-target.ts';
import type { CliIo } from './cli-io.ts';
import { apiKeyFrom, timeoutFlag, writesFrom } from './flag-values.ts';

/** Every flag of verify-pact, with its help. */
const verifyPactFlags = {
  'base-url': { type: 'string', value: '<url>', help: "the server's base address, ending in /v1" },
  'allow-writes': {
    type: 'boolean',
    help: 'create pets on a non-loopback server (states like "pet 42 exists")',
  },
  'read-only': { type: 'boolean', help: 'never create pets (those states are skipped)' },
  pending: {
    type: 'string',
    multiple: true,
    value: '<state>',
    help: [
      'a provider state not to set up, as the pact names it ("the key is',
      'banned"): its interactions are reported PENDING, not sent (repeatable)',
    ],
  },
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
cannot make is skipped with the reason; one you accept with --pending is not
set up, and its interactions are reported PENDING. The key comes from
PETSTORE_API_KEY. Exit 0 all passed (pending ones aside), 1 one failed,
2 no verdict (one skipped, or none passed).

Options:
${flagHelp(verifyPactFlags, 25)}`;
}

const labels = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP', pending: 'PENDING' } as const;

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

/**
 * A file's bytes as UTF-8 text, or a PactFileError: the Pact tools refuse a file that is not
 * UTF-8 ("stream did not contain valid UTF-8"), where a lenient decoder would read on. A
 * byte-order mark is kept, so that JSON.parse refuses it as they do.
 */
function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new PactFileError('it is not UTF-8 text, which the Pact tools cannot read');
  }
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
    // Integers past 2^53 read as `bigint`: a pact's int64 is sent and compared with every digit.
    interactions = readPact(parseJson(utf8Text(readFileSync(file))));
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
  const pending = new Set(values.pending ?? []);
  const named = new Set(interactions.flatMap((each) => each.providerStates.map((s) => s.name)));
  for (const state of pending)
    if (!named.has(state))
      io.err(
        redact(
          `${toolName}: verify-pact: --pending ${JSON.stringify(state)}: no interaction of this pact is in that state`,
        ),
      );
  const replay = await replayPact(interactions, {
    baseUrl: target.baseUrl,
    apiKey: key,
    writes,
    budget,
    timeoutMs,
    pending,
    onResult: (result) => out(formatInteraction(result)),
  });
  const count = (verdict: InteractionResult['verdict']) =>
    replay.results.filter((result) => result.verdict === verdict).length;
  const [passed, failed, skipped, pended] = [
    count('pass'),
    count('fail'),
    count('skip'),
    count('pending'),
  ];
  out(
    `${toolName}: ${passed} passed, ${failed} failed, ${skipped} skipped${pended === 0 ? '' : `, ${pended} pending`}; ${replay.requests} requests sent`,
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
  out(
    `${toolName}: the server honours the pact (${passed} interactions${pended === 0 ? '' : `; ${pended} pending, not verified`})`,
  );
  return 0;
}
