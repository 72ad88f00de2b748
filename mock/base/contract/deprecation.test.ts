import { expect, test } from 'vitest';
import { deprecationHeaders, getPetDeprecation, isSunset } from './deprecation.ts';

test('getPet headers follow RFC 9745 and RFC 8594 with the interface removal date', () => {
  const headers = deprecationHeaders(getPetDeprecation, 'http://127.0.0.1:4010/v1/pets');
  expect(headers.Deprecation).toMatch(/^@\d+$/);
  expect(Number(headers.Deprecation?.slice(1)) * 1000).toBe(getPetDeprecation.deprecatedAt);
  expect(headers.Sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(headers.Link).toBe('<http://127.0.0.1:4010/v1/pets>; rel="successor-version"');
});

test('the endpoint is gone from the sunset instant on', () => {
  const sunset = Date.UTC(2030, 11, 5);
  expect(isSunset(getPetDeprecation, sunset - 1)).toBe(false);
  expect(isSunset(getPetDeprecation, sunset)).toBe(true);
});
