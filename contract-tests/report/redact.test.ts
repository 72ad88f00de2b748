import { expect, test } from 'vitest';
import { internalErrorMessage } from '../cli/internal-error.ts';
import { createKeyRedactor } from './redact.ts';

const key = 'k3y/with+slashes/and-more-9f2c é';
const redact = createKeyRedactor(key);

test('redacts the key as sent and in every encoded form a server may echo it in', () => {
  const forms = [
    key,
    JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    JSON.stringify(key).slice(1, -1).replace('é', '\\u00e9'),
    encodeURIComponent(key),
    encodeURIComponent(key).toLowerCase(),
    encodeURIComponent(key).replaceAll('%20', '+'),
    Buffer.from(key).toString('base64'),
    Buffer.from(`user:${key}`).toString('base64'),
    Buffer.from(`ab${key}`).toString('base64url'),
  ];
  for (const form of forms) {
    const text = redact(`before ${form} after`);
    expect(text, form).toMatch(/^before .*\$PETSTORE_API_KEY.* after$/);
    expect(text).not.toContain(key.slice(0, 8));
  }
});

test('redacts any fragment of 8 or more characters, as a cut preview leaves it', () => {
  expect(redact(`cut here: ${key.slice(0, 8)}`)).toBe('cut here: $PETSTORE_API_KEY');
  expect(redact(`${key.slice(-10)} was the tail`)).toBe('$PETSTORE_API_KEY was the tail');
  // Seven characters are left alone: fragments that short match innocent text.
  expect(redact(`short ${key.slice(0, 7)}.`)).toBe(`short ${key.slice(0, 7)}.`);
});

test('leaves text without the key unchanged', () => {
  const text = 'GET /pets?limit=5 -> 200 {"id":1,"name":"Rex"}';
  expect(redact(text)).toBe(text);
});

test("the CLI's last-resort handler redacts the key from a stack", () => {
  const error = new Error(`server said ${JSON.stringify({ token: key }).replaceAll('/', '\\/')}`);
  const message = internalErrorMessage(error, { PETSTORE_API_KEY: key });
  expect(message).toMatch(
    /^petstore-contract: internal error, please report it: Error: server said/,
  );
  expect(message).not.toContain('k3y');
  expect(message).toContain('$PETSTORE_API_KEY');
});
