/** Path ids for `GET /pets/{petId}`: int64 values no pet has, and strings that are not int64. */
import fc from 'fast-check';
import { int64 } from '../contract/interface-facts.ts';

/**
 * An int64 id that no service assigning ids from 1 upwards will have reached: the top quarter
 * of the int64 range, or a negative value.
 */
export const unknownId = (): fc.Arbitrary<string> =>
  fc
    .oneof(fc.bigInt(2n ** 62n, int64.max), fc.bigInt(int64.min, -1n), fc.constant(int64.max))
    .map((id) => id.toString());

/** A petId that is not an int64 in decimal (no leading zeros or signs a parser might forgive). */
export const malformedId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      'abc',
      '1.5',
      '-',
      '1e3',
      '0x1F',
      'null',
      'true',
      ' ',
      (int64.max + 1n).toString(),
      (int64.min - 1n).toString(),
      '99999999999999999999999',
    ),
    fc.stringMatching(/^[a-z]{1,10}$/),
    fc.stringMatching(/^[0-9]{1,4}[a-z]{1,4}$/),
  );
