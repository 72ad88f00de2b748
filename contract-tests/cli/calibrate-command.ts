/**
 * `petstore-contract calibrate --base-url <url>`: learns the server's choices where the
 * interface is silent and writes them as a profile the fake can load (`npm start -- --profile`).
 * With `--compare`, runs the same probes against the fake (as `--fake-profile` configures it) and
 * exits 1 when any choice both could learn differs: CI keeps the fake honest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describeParseError } from '../../mock/cli/unknown-flag.ts';
import { ConfigError } from '../../mock/config/config-error.ts';
import { type FakeProfile, parseProfile } from '../../mock/config/profile.ts';
import { calibrate } from '../calibrate/calibrate.ts';
import { compareProfiles } from '../calibrate/compare.ts';
import { createRedactor } from '../report/redact.ts';
import { fakeFetchTarget } from '../targets/fake-target.ts';
import { normaliseBaseUrl, urlTarget } from '../targets/url-target.ts';
import type { CliIo } from './cli-io.ts';
import { apiKeyFrom, checkOutputPath, integer, writesFrom } from './flag-values.ts';
import { ContractUsageError, toolName } from './usage-error.ts';

/** The fake's command beside the harness's: the bin when installed, else the npm script. */
function fakeCommand(command: string): string {
  return command === 'petstore-contract' ? 'petstore-fake' : 'npm start --';
}

function calibrateUsage(command: string): string {
  return `Usage: ${command} calibrate --base-url <url> [options]

Learns what the server chooses where the interface is silent (default status,
name length limit, unknown fields, the status for a malformed id, bad query
values, error codes, the Retry-After format) and writes a profile for the fake:
${fakeCommand(command)} --profile <file>, or createFake({ profile }). Choices it cannot
learn are listed as such, never guessed. The key comes from PETSTORE_API_KEY.

Options:
  --base-url <url>       the server's base address, ending in /v1
  --out <file>           write the profile here (default: print it)
  --compare              also probe the fake and list every choice that differs (exit 1)
  --fake-profile <file>  the profile the fake is run with for --compare (default: none)
  --allow-writes         create pets on a non-loopback server (needed for most choices)
  --read-only            never create pets
  --rate-limits          spend the key's window once to see a 429 (Retry-After format)
  --budget <n>           most requests (default 60; + the window with --rate-limits)
  --timeout <ms>         per-request timeout (default 10000)
  -h, --help             this text`;
}

/** Every flag of calibrate. */
const calibrateFlags = {
  'base-url': { type: 'string' },
  out: { type: 'string' },
  compare: { type: 'boolean' },
  'fake-profile': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'rate-limits': { type: 'boolean' },
  budget: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readProfile(path: string): FakeProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ContractUsageError(
      `calibrate: cannot read --fake-profile ${path}: ${(error as Error).message}`,
    );
  }
  try {
    return parseProfile(JSON.parse(text));
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SyntaxError)
      throw new ContractUsageError(`calibrate: --fake-profile ${path}: ${error.message}`);
    throw error;
  }
}

function describe(profile: FakeProfile): string[] {
  const { errorCodes, ...rest } = profile.choices;
  return [
    ...Object.entries(rest).map(([name, value]) => `  ${name}: ${JSON.stringify(value)}`),
    ...Object.entries(errorCodes ?? {}).map(
      ([code, value]) => `  errorCodes.${code}: ${JSON.stringify(value)}`,
    ),
    ...Object.entries(profile.notLearned ?? {}).map(
      ([name, why]) => `  ${name}: not learned (${why})`,
    ),
  ];
}

/** Runs `calibrate`; resolves to the exit code. */
export async function runCalibrateCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: calibrateFlags,
    }).values;
  } catch (error) {
    throw new ContractUsageError(
      `calibrate: ${describeParseError(error, Object.keys(calibrateFlags))}`,
    );
  }
  const command = io.command ?? 'npm run contract --';
  if (values.help === true) {
    io.out(calibrateUsage(command));
    return 0;
  }
  if (typeof values['base-url'] !== 'string')
    throw new ContractUsageError(
      'calibrate: --base-url <url> is required (the base URL, ending in /v1)',
    );
  const key = apiKeyFrom(env);
  const budget =
    values.budget === undefined
      ? undefined
      : integer(values.budget as string, '--budget', 0, 1, 1_000_000);
  const timeoutMs = integer(values.timeout as string | undefined, '--timeout', 10_000, 1, 600_000);
  const redact = createRedactor(key);
  const out = (line: string) => io.out(redact(line));
  const target = urlTarget(normaliseBaseUrl(values['base-url']), key);
  const writes = writesFrom(values) ?? target.loopback;
  const shared = {
    writes,
    rateLimits: values['rate-limits'] === true,
    timeoutMs,
    redact,
    onWait: (wait: { ms: number; reason: string }) =>
      out(`${toolName}: waiting ${(wait.ms / 1000).toFixed(1)} s for ${wait.reason}`),
    ...(budget === undefined ? {} : { budget }),
  };
  const fakeProfile =
    typeof values['fake-profile'] === 'string' ? readProfile(values['fake-profile']) : undefined;
  // Before the first probe: a typo in --out must not cost the key's window and pets.
  checkOutputPath('--out', typeof values.out === 'string' ? values.out : undefined);
  out(`${toolName}: calibrating against ${target.baseUrl} (${writes ? 'writes on' : 'read-only'})`);
  const server = await calibrate({ target, ...shared });
  const profile = server.profile;
  for (const line of describe(profile)) out(line);
  out(`${toolName}: ${server.requests} requests sent (${server.keyRequests} with the key)`);
  const text = `${JSON.stringify(profile, null, 2)}\n`;
  if (typeof values.out === 'string') {
    try {
      writeFileSync(values.out, redact(text));
    } catch (error) {
      throw new ContractUsageError(
        `calibrate: cannot write --out ${values.out}: ${(error as Error).message}`,
      );
    }
    out(
      `${toolName}: profile written to ${values.out}; load it with ${fakeCommand(command)} --profile ${values.out}`,
    );
  } else if (values.compare !== true) out(redact(text));
  if (values.compare !== true) return 0;

  // The same probes, with the same flags, against the fake as the profile under test sets it up.
  const fake = await fakeFetchTarget({
    apiKey: 'free-demo-key',
    ...(fakeProfile === undefined ? {} : { fake: { profile: fakeProfile } }),
  });
  try {
    const mirrored = await calibrate({ target: { ...fake, loopback: target.loopback }, ...shared });
    const comparison = compareProfiles(profile, mirrored.profile);
    for (const line of comparison.differences) out(`  differs: ${line}`);
    for (const line of comparison.notCompared) out(`  not compared: ${line}`);
    if (comparison.differences.length > 0) {
      out(
        `${toolName}: the fake answers differently from the server on ${comparison.differences.length} choice(s); update the profile the fake runs with (calibrate --out) or the fake`,
      );
      return 1;
    }
    out(
      `${toolName}: the fake answers as the server does on all ${comparison.same.length} choices both could learn`,
    );
    return 0;
  } finally {
    await fake.close();
  }
}
