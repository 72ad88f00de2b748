/**
 * `petstore-contract calibrate --base-url <url>`: learns the server's choices where the
 * interface is silent and writes them as a profile the fake can load (`npm start -- --profile`).
 * With `--compare`, runs the same probes against the fake (as `--fake-profile` configures it) and
 * exits 1 when any choice both could learn differs: CI keeps the fake honest.
 */
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  type FakeProfile,
  type FlagSpecs,
  flagHelp,
  parseFlags,
  parseInteger,
  parseProfile,
  writeOutputFile,
} from '../../mock/internal/entry.ts';
import { ContractUsageError, toolName } from '../base/usage-error.ts';
import { calibrate } from '../calibrate/calibrate.ts';
import { compareProfiles } from '../calibrate/compare.ts';
import { createKeyRedactor } from '../report/redact.ts';
import { type ClientSettings, createRunClient } from '../runner/run-client.ts';
import { fakeFetchTarget } from '../targets/fake-target.ts';
import { normaliseBaseUrl, urlTarget } from '../targets/url-target.ts';
import type { CliIo } from './cli-io.ts';
import { apiKeyFrom, checkOutputPath, timeoutFlag, writesFrom } from './flag-values.ts';

/** The fake's command beside the harness's: the bin when installed, else the npm script. */
function fakeCommand(command: string): string {
  return command === 'petstore-contract' ? 'petstore-fake' : 'npm start --';
}

/** Every flag of calibrate, with its help. */
const calibrateFlags = {
  'base-url': { type: 'string', value: '<url>', help: "the server's base address, ending in /v1" },
  out: { type: 'string', value: '<file>', help: 'write the profile here (default: print it)' },
  compare: {
    type: 'boolean',
    help: 'also probe the fake and list every choice that differs (exit 1)',
  },
  'fake-profile': {
    type: 'string',
    value: '<file>',
    help: 'the profile the fake is run with for --compare (default: none)',
  },
  'allow-writes': {
    type: 'boolean',
    help: 'create pets on a non-loopback server (needed for most choices)',
  },
  'read-only': { type: 'boolean', help: 'never create pets' },
  'rate-limits': {
    type: 'boolean',
    help: "spend the key's window once to see a 429 (Retry-After format)",
  },
  budget: {
    type: 'string',
    value: '<n>',
    help: 'most requests (default 60; + the window with --rate-limits)',
  },
  timeout: timeoutFlag,
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies FlagSpecs;

function calibrateUsage(command: string): string {
  return `Usage: ${command} calibrate --base-url <url> [options]

Learns what the server chooses where the interface is silent (default status,
name length limit, unknown fields, the status for a malformed id, bad query
values, error codes, the Retry-After format) and writes a profile for the fake:
${fakeCommand(command)} --profile <file>, or createFake({ profile }). Choices it cannot
learn are listed as such, never guessed. The key comes from PETSTORE_API_KEY.

Options:
${flagHelp(calibrateFlags, 25)}`;
}

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
  const { values } = parseFlags(
    argv,
    calibrateFlags,
    (message) => new ContractUsageError(`calibrate: ${message}`),
  );
  const command = io.command ?? 'npm run contract --';
  if (values.help === true) {
    io.out(calibrateUsage(command));
    return 0;
  }
  if (values['base-url'] === undefined)
    throw new ContractUsageError(
      'calibrate: --base-url <url> is required (the base URL, ending in /v1)',
    );
  const key = apiKeyFrom(env);
  const redact = createKeyRedactor(key);
  const out = (line: string) => io.out(redact(line));
  // One set of client settings for both targets: the server and, with --compare, the fake.
  const settings: ClientSettings = {
    budget: parseInteger('--budget', values.budget, { min: 1, max: 1_000_000 }),
    timeoutMs: parseInteger('--timeout', values.timeout, { min: 1, max: 600_000 }),
    redact,
    onWait: (wait) =>
      out(`${toolName}: waiting ${(wait.ms / 1000).toFixed(1)} s for ${wait.reason}`),
  };
  const target = urlTarget(normaliseBaseUrl(values['base-url']), key);
  const writes = writesFrom(values) ?? target.loopback;
  const shared = { writes, rateLimits: values['rate-limits'] === true };
  const fakeProfile =
    values['fake-profile'] === undefined ? undefined : readProfile(values['fake-profile']);
  // Before the first probe: a typo in --out must not cost the key's window and pets.
  checkOutputPath('--out', values.out);
  out(`${toolName}: calibrating against ${target.baseUrl} (${writes ? 'writes on' : 'read-only'})`);
  const server = await calibrate({ client: createRunClient(target, settings), ...shared });
  const profile = server.profile;
  for (const line of describe(profile)) out(line);
  out(`${toolName}: ${server.requests} requests sent (${server.keyRequests} with the key)`);
  const text = `${JSON.stringify(profile, null, 2)}\n`;
  if (values.out !== undefined) {
    try {
      writeOutputFile(values.out, redact(text));
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
    fake: fakeProfile === undefined ? undefined : { profile: fakeProfile },
  });
  try {
    const mirrored = await calibrate({
      client: createRunClient({ ...fake, loopback: target.loopback }, settings),
      ...shared,
    });
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
