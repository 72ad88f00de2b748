/**
 * expectInterfaceCoverage on a coverage record: a suite's, merged from its test files' fakes
 * (vitest gives each file its own), checked once after the suite.
 */
import { inspect } from 'node:util';
import { expect, test } from 'vitest';
import { createFake } from '../../../core/fake.ts';
import { expectInterfaceCoverage, InterfaceCoverageError } from './expect-interface-coverage.ts';
import { mergeCoverage } from './merge-coverage.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key' };

test("a suite's merged record meets a requirement no single file's fake meets", async () => {
  const pets = await createFake();
  const errors = await createFake();
  await pets.fetch(`${api}/pets?limit=2`, { headers: free });
  await errors.fetch(`${api}/pets/99999`, { headers: free });
  await errors.fetch(`${api}/pets`);
  const require = ['listPets 200', 'getPet 404', 'listPets 401'];
  expect(() => expectInterfaceCoverage(pets, { require })).toThrow(InterfaceCoverageError);
  expect(() => expectInterfaceCoverage(errors, { require })).toThrow(InterfaceCoverageError);
  const suite = mergeCoverage([pets.control.coverage(), errors.control.coverage()]);
  expect(expectInterfaceCoverage(suite, { require })).toBe(suite);
});

/** What `check` throws (it must throw). */
function thrown(check: () => unknown): InterfaceCoverageError {
  try {
    check();
  } catch (error) {
    return error as InterfaceCoverageError;
  }
  throw new Error('expected a throw');
}

test('a record that never met a required item throws the readable list, as its fake does', async () => {
  const fake = await createFake();
  await fake.fetch(`${api}/pets/99999`, { headers: free });
  const require = ['getPet 404', 'createPet 400', 'limits.ban'];
  const record = mergeCoverage([fake.control.coverage()]);
  const error = thrown(() => expectInterfaceCoverage(record, { require }));
  expect(error).toBeInstanceOf(InterfaceCoverageError);
  expect(error.message).toBe(
    'petstore-fake: the tests never exercised 2 of the 3 required interface item(s) (1 request seen):\n' +
      '  - createPet 400: POST /pets answered 400 (POST /pets (createPet))\n' +
      '  - limits.ban: after a 429, the same key kept sending before its Retry-After had passed (the ban) (Limits, rule 3)',
  );
  expect(error.missing.map((item) => item.id)).toEqual(['createPet 400', 'limits.ban']);
  expect(thrown(() => expectInterfaceCoverage(fake, { require })).message).toBe(error.message);
  expect(() => expectInterfaceCoverage(record, { require: ['getPet 410'] })).toThrow(
    /unknown item\(s\) "getPet 410"/,
  );
});

test('the error prints as its list and the one line that called it, not each item again (util.inspect, as vitest prints a failed teardown)', async () => {
  const fake = await createFake();
  const require = ['getPet 404', 'createPet 400', 'limits.ban'];
  const limit = Error.stackTraceLimit;
  const error = thrown(() => expectInterfaceCoverage(fake.control.coverage(), { require }));
  const printed = inspect(error).split('\n');
  // The name and message's four lines, then one frame: this file's call.
  expect(printed.slice(0, 4)).toEqual([
    `InterfaceCoverageError: ${error.message.split('\n')[0]}`,
    ...error.message.split('\n').slice(1),
  ]);
  expect(printed).toHaveLength(5);
  expect(printed[4]).toMatch(/^ {4}at .*expect-interface-coverage\.test\.ts:\d+:\d+\)?$/);
  expect(inspect(error)).not.toMatch(/missing:|not-exercised/);
  // The items stay readable in code, and the stack limit is put back.
  expect(error.missing.map((item) => item.id)).toEqual([
    'createPet 400',
    'getPet 404',
    'limits.ban',
  ]);
  expect(Error.stackTraceLimit).toBe(limit);
});
