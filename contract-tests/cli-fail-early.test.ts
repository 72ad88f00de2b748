/**
 * The CLI fails before it spends anything, as a user meets it (`node contract-tests/cli.ts`, what
 * `npm run contract` runs): an output path that cannot be written (`--junit`, `--log`,
 * calibrate's `--out`) is one line naming the flag, exit 2, and the server sees no request; an
 * unknown flag names the nearest known one, in the run and in each subcommand.
 */
import { tmpdir } from 'node:os';
import { afterEach, expect, test } from 'vitest';
import { runCli } from '../test/support/contract-cli-process.ts';
import { type FakeTarget, httpFakeTarget } from './targets/fake-target.ts';

const key = 'free-demo-key';

const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
});

/** The fake on a real port, counting the requests it serves. */
async function countingDoor(): Promise<{ baseUrl: string; served: () => number }> {
  let served = 0;
  const target = await httpFakeTarget({
    virtualTime: false,
    fake: {
      onExchange: () => {
        served += 1;
      },
    },
  });
  open.push(target);
  return { baseUrl: target.baseUrl, served: () => served };
}

const unusable = [
  ['/nonexistent/dir/out.xml', 'the folder /nonexistent/dir does not exist'],
  [tmpdir(), 'it is a directory'],
] as const;

test('an unusable --junit or --log path is one line naming the flag, exit 2, before the first request', async () => {
  const door = await countingDoor();
  for (const flag of ['--junit', '--log'])
    for (const [path, why] of unusable) {
      const run = await runCli(['--base-url', door.baseUrl, flag, path], { PETSTORE_API_KEY: key });
      expect(run.code, `${flag} ${path}`).toBe(2);
      expect(run.stderr).toBe(
        `petstore-contract: cannot write the ${flag} file ${path}: ${why}; pick a path in a folder that exists and is writable\n`,
      );
      expect(run.stdout).toBe('');
    }
  expect(door.served()).toBe(0);
});

test("calibrate's unusable --out is one line naming the flag, exit 2, before the first probe", async () => {
  const door = await countingDoor();
  for (const [path, why] of unusable) {
    const run = await runCli(['calibrate', '--base-url', door.baseUrl, '--out', path], {
      PETSTORE_API_KEY: key,
    });
    expect(run.code, path).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      `petstore-contract: cannot write the --out file ${path}: ${why}; pick a path in a folder that exists and is writable`,
    );
  }
  expect(door.served()).toBe(0);
});

test('an unknown flag suggests the nearest known one, in the run and in calibrate', async () => {
  const run = await runCli(['--base-ur', 'http://127.0.0.1:9/v1']);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    'petstore-contract: unknown option --base-ur; did you mean --base-url?\npetstore-contract: run npm run contract -- --help for usage\n',
  );
  const calibrate = await runCli([
    'calibrate',
    '--base-url',
    'http://127.0.0.1:9/v1',
    '--otu',
    'x',
  ]);
  expect(calibrate.code).toBe(2);
  expect(calibrate.stderr.split('\n')[0]).toBe(
    'petstore-contract: calibrate: unknown option --otu; did you mean --out?',
  );
  // Nothing near enough: no guess, still the usage pointer.
  const far = await runCli(['--fake', '--completely-different']);
  expect(far.stderr.split('\n')[0]).toBe(
    'petstore-contract: unknown option --completely-different',
  );
});
