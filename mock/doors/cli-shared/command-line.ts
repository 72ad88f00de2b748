/**
 * The command-line pieces every CLI of the package shares (the fake's `npm start`, the harness
 * and its subcommands): a flag's spec with its help line, the help generated from the specs, and
 * one integer parser with one message. A flag is declared once, where its CLI parses it.
 */
import { type ParseArgsOptionDescriptor, parseArgs } from 'node:util';
import { describeParseError } from './unknown-flag.ts';

/**
 * One flag: what `node:util` parseArgs needs (type, short, default) and what `--help` says.
 * @example { type: 'string', default: '10000', value: '<ms>', help: 'per-request timeout (default 10000)' }
 */
type FlagSpec = ParseArgsOptionDescriptor & {
  /** The value's name in help, e.g. `<ms>`; boolean flags have none. */
  readonly value?: string;
  /** Its help, one string per printed line; absent when another flag's line explains it. */
  readonly help?: string | readonly string[];
};

/** A CLI's flags by name (without the dashes), in the order parseArgs and suggestions see them. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** A command line a CLI cannot run: the message names the flag and how to fix it (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * One help entry: `label` padded so the help starts `column` characters in; further lines too.
 * @example helpEntry('--port <n>', 'port to listen on', 23)
 */
export function helpEntry(label: string, help: string | readonly string[], column: number): string {
  const [first = '', ...rest] = typeof help === 'string' ? [help] : help;
  return [
    `  ${label.padEnd(column - 3)} ${first}`,
    ...rest.map((line) => ' '.repeat(column) + line),
  ]
    .map((line) => line.trimEnd())
    .join('\n');
}

/**
 * The help lines of `specs`, in spec order or in the order of `names`, each help starting at
 * `column`; a flag without help (explained on another's line) is left out.
 * @example flagHelp(flagSpecs, 27)
 */
export function flagHelp(
  specs: FlagSpecs,
  column: number,
  names: readonly string[] = Object.keys(specs),
): string {
  const lines: string[] = [];
  for (const name of names) {
    const spec = specs[name];
    if (spec === undefined) throw new Error(`flagHelp: no flag --${name} in the specs`);
    if (spec.help === undefined) continue;
    const short = spec.short === undefined ? '' : `-${spec.short}, `;
    const label = `${short}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    lines.push(helpEntry(label, spec.help, column));
  }
  return lines.join('\n');
}

/** The integers an integer flag takes, both ends included. */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

/**
 * An integer flag's value, from `range.min` to `range.max`; undefined when the flag is absent.
 * Throws UsageError naming the flag, the range and what was typed.
 * @example parseInteger('--timeout', values.timeout, { min: 1, max: 600_000 })
 */
export function parseInteger(flag: string, value: string, range: IntegerRange): number;
export function parseInteger(
  flag: string,
  value: string | undefined,
  range: IntegerRange,
): number | undefined;
export function parseInteger(
  flag: string,
  value: string | undefined,
  { min, max }: IntegerRange,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(number) || number < min || number > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`);
  return number;
}

/**
 * Parses a command line against a CLI's flags, strictly (an unknown flag or a missing value is
 * refused); the error `refuse` makes of the message, which names the flag and the nearest known
 * one, is thrown instead of parseArgs' own.
 * @example const { values } = parseFlags(argv, calibrateFlags, (message) => new UsageError(message));
 */
export function parseFlags<const Flags extends FlagSpecs>(
  argv: readonly string[],
  flags: Flags,
  refuse: (message: string) => Error,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals, options: flags });
  } catch (error) {
    throw refuse(describeParseError(error, Object.keys(flags)));
  }
}
