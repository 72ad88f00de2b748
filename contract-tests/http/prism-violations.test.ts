import { expect, test } from 'vitest';
import { answerViolations, roundedByPrism } from './prism-violations.ts';

const rounded = (row: number) => ({
  location: ['response', 'body', String(row), 'categoryId'],
  severity: 'Error',
  code: 'minimum',
  message: 'Response body property categoryId must be >= -9007199254740991',
});

test('reads the findings at the front of a header Prism cut ("Too many violations!")', () => {
  // As @stoplight/prism-http-server's addViolationHeader writes it past 8 KiB - 100 characters:
  // the prefix, then the JSON array cut anywhere (here inside the 60th finding).
  const json = JSON.stringify(Array.from({ length: 100 }, (_, row) => rounded(row)));
  const cut = json.slice(0, json.indexOf('"59"') + 2);
  const headers = new Headers({ 'sl-violations': `Too many violations! ${cut}` });
  const findings = answerViolations(headers);
  expect(findings).toHaveLength(59);
  expect(findings?.every(roundedByPrism)).toBe(true);
});

test('a whole header is read as it is, and one with no whole finding is unreadable', () => {
  const whole = new Headers({ 'sl-violations': JSON.stringify([rounded(0)]) });
  expect(answerViolations(whole)).toEqual([rounded(0)]);
  const nothingWhole = new Headers({ 'sl-violations': 'Too many violations! [{"location":["resp' });
  expect(answerViolations(nothingWhole)).toBeUndefined();
  expect(answerViolations(new Headers())).toEqual([]);
});
