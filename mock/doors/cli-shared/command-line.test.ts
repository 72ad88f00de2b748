/** The command-line pieces both CLIs share: help generated from flag specs, one integer parser. */
import { expect, test } from 'vitest';
import { type FlagSpecs, flagHelp, helpEntry, parseInteger, UsageError } from './command-line.ts';

const specs = {
  port: { type: 'string', value: '<n>', help: 'port to listen on' },
  'no-staging': { type: 'boolean' },
  chaos: { type: 'string', value: '<json|file>', help: ['seeded chaos: shares of', 'latency'] },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies FlagSpecs;

test('help lists each flag with its value name, its help starting at the column, in spec order', () => {
  expect(flagHelp(specs, 20)).toBe(
    [
      '  --port <n>        port to listen on',
      '  --chaos <json|file> seeded chaos: shares of',
      '                    latency',
      '  -h, --help        this text',
    ].join('\n'),
  );
});

test('help follows a given order, and names a flag that the specs do not have', () => {
  expect(flagHelp(specs, 14, ['help', 'port'])).toBe(
    '  -h, --help  this text\n  --port <n>  port to listen on',
  );
  expect(() => flagHelp(specs, 14, ['prot'])).toThrow('flagHelp: no flag --prot in the specs');
});

test('a help entry for something else than a flag (an environment variable) lines up the same', () => {
  expect(helpEntry('TOKEN', ['a secret', 'of 16 characters'], 10)).toBe(
    '  TOKEN   a secret\n          of 16 characters',
  );
});

test('an integer flag takes integers within its range, both ends included', () => {
  expect(parseInteger('--port', '0', { min: 0, max: 65_535 })).toBe(0);
  expect(parseInteger('--port', '65535', { min: 0, max: 65_535 })).toBe(65_535);
  expect(parseInteger('--seed', '-5', { min: -10, max: 10 })).toBe(-5);
  expect(parseInteger('--port', undefined, { min: 0, max: 65_535 })).toBeUndefined();
});

test('anything else is a UsageError naming the flag, the range and what was typed', () => {
  for (const value of ['abc', '1.5', '', '70000', '-1', '1e3', '99999999999999999999']) {
    const parse = () => parseInteger('--port', value, { min: 0, max: 65_535 });
    expect(parse, value).toThrow(UsageError);
    expect(parse, value).toThrow(`--port must be an integer from 0 to 65535, got "${value}"`);
  }
});
