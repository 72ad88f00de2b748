/**
 * Pact path expressions as pact_models writes and reads them (its path_exp.rs tests:
 * `DocPath::root().join("something else")` is `$['something else']`; `"$.first name"` is refused
 * with the message the official Verifier prints for such a pact). The Verifier itself is
 * held to them in contract-tests/pact-verifier-loads.test.ts.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { fieldPath, PactPathError, parsePactPath } from './pact-path.ts';

test('a plain identifier is written with a dot, any other name in brackets, and a name with a quote or none has no path', () => {
  expect(fieldPath('$', 'name')).toBe('$.name');
  expect(fieldPath('$', 'first name')).toBe("$['first name']");
  expect(fieldPath('$', '_.V00u<')).toBe("$['_.V00u<']");
  expect(fieldPath("$['a b']", 'c')).toBe("$['a b'].c");
  expect(fieldPath('$', "it's")).toBeUndefined();
  expect(fieldPath('$', '')).toBeUndefined();
});

test('the paths the Pact tools refuse are refused with their message', () => {
  expect(() => parsePactPath('$.first name')).toThrow(
    new PactPathError(
      '" " is not allowed in an identifier in path expression "$.first name" at index 7',
    ),
  );
  expect(() => parsePactPath("$['']")).toThrow(/^Empty strings are not allowed/);
  expect(() => parsePactPath("$['a'b']")).toThrow(/^Unterminated brackets, found "b"/);
  expect(() => parsePactPath('first')).not.toThrow();
  expect(parsePactPath('$[*].id[2]')).toEqual([
    { kind: 'root' },
    { kind: 'star-index' },
    { kind: 'field', name: 'id' },
    { kind: 'index', index: 2 },
  ]);
});

test('property: every key a path can name reads back as that key, nested too; the others have none', () => {
  const key = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: fc.constantFrom('$', '.', '[', ']', "'", '*', ' ', 'a', '0'), maxLength: 6 }),
  );
  fc.assert(
    fc.property(key, key, (outer, inner) => {
      const path = fieldPath('$', outer);
      expect(path === undefined).toBe(outer === '' || outer.includes("'"));
      if (path === undefined) return;
      expect(parsePactPath(path)).toEqual([{ kind: 'root' }, { kind: 'field', name: outer }]);
      const nested = fieldPath(path, inner);
      if (nested !== undefined)
        expect(parsePactPath(nested).slice(1)).toEqual([
          { kind: 'field', name: outer },
          { kind: 'field', name: inner },
        ]);
    }),
    { seed: 3232, numRuns: 500 },
  );
});
