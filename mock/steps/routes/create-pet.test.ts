import { expect, test } from 'vitest';
import { validateNewPet } from './create-pet.ts';

test('accepts a NewPet with or without status, keeping int64 categoryIds exact', () => {
  expect(validateNewPet({ name: 'Rex', categoryId: 1 }, 256)).toEqual({
    pet: { name: 'Rex', categoryId: 1 },
  });
  const big = 2n ** 63n - 1n;
  expect(validateNewPet({ name: 'Rex', categoryId: big, status: 'sold' }, 256)).toEqual({
    pet: { name: 'Rex', categoryId: big, status: 'sold' },
  });
});

test('names every missing required field', () => {
  expect(validateNewPet({}, 256)).toEqual({ error: 'name is required; categoryId is required' });
  expect(validateNewPet({ name: 'Rex' }, 256)).toEqual({ error: 'categoryId is required' });
});

test('refuses wrong types, unknown statuses and out-of-int64 ids', () => {
  const cases: [unknown, RegExp][] = [
    [null, /JSON object/],
    [[], /JSON object/],
    ['Rex', /JSON object/],
    [{ name: 5, categoryId: 1 }, /name must be a string, got integer/],
    [{ name: 'Rex', categoryId: '1' }, /categoryId must be an integer, got string/],
    [{ name: 'Rex', categoryId: 1.5 }, /categoryId must be an integer, got number/],
    [
      { name: 'Rex', categoryId: 1, status: 'adopted' },
      /status must be one of "available", "pending", "sold"/,
    ],
    [{ name: 'Rex', categoryId: 2n ** 63n }, /categoryId must fit in int64/],
    [{ name: 'Rex', categoryId: -(2n ** 63n) - 1n }, /categoryId must fit in int64/],
  ];
  for (const [body, message] of cases)
    expect(validateNewPet(body, 256)).toEqual({ error: expect.stringMatching(message) });
});

test('refuses blank names and names past the configured length, counting characters not bytes', () => {
  expect(validateNewPet({ name: '  ', categoryId: 1 }, 256)).toEqual({
    error: 'name must not be blank',
  });
  expect(validateNewPet({ name: 'ë'.repeat(4), categoryId: 1 }, 4)).toHaveProperty('pet');
  expect(validateNewPet({ name: 'ë'.repeat(5), categoryId: 1 }, 4)).toEqual({
    error: 'name must be at most 4 characters',
  });
});

test('ignores unknown fields, including a client-chosen id', () => {
  expect(validateNewPet({ name: 'Rex', categoryId: 1, id: 99, colour: 'red' }, 256)).toHaveProperty(
    'pet',
  );
});
