import { expect, test } from 'vitest';
import { parseListQuery } from './list-pets.ts';

const parse = (query: string) => parseListQuery(new URLSearchParams(query));

test('limit defaults to 20 and status to no filter', () => {
  expect(parse('')).toEqual({ limit: 20, status: undefined });
});

test('accepts limits 1 to 100 and every PetStatus', () => {
  expect(parse('limit=1&status=sold')).toEqual({ limit: 1, status: 'sold' });
  expect(parse('limit=100&status=pending')).toEqual({ limit: 100, status: 'pending' });
  expect(parse('limit=007')).toEqual({ limit: 7, status: undefined });
});

test('refuses out-of-range, malformed and repeated values with a reason', () => {
  for (const query of [
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=',
    'limit=1e1',
    'limit=2.0',
    'limit=+5',
    'limit=99999999999',
    'limit=0x10',
    'limit=1&limit=2',
  ]) {
    expect(parse(query), query).toHaveProperty('error', expect.stringMatching(/limit/));
  }
  for (const query of ['status=', 'status=SOLD', 'status=adopted', 'status=sold&status=pending']) {
    expect(parse(query), query).toHaveProperty('error', expect.stringMatching(/status/));
  }
});
