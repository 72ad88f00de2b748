/**
 * Where a replica finds its Redis: the flag or the variable, the schemes and database numbers
 * node-redis takes, a password refused on the command line, and no error or shown form that
 * holds the password, in any encoding.
 */
import { expect, test } from 'vitest';
import { ConfigError } from '../base/config-error.ts';
import { formsOf } from '../base/messages/secret-forms.ts';
import { redisTarget } from './redis-url.ts';

const password = 's3cret/pa ss';
const withPassword = `redis://fleet:${encodeURIComponent(password)}@127.0.0.1:6390/2`;

/** What redisTarget threw, checked to be one line naming the source and holding no password. */
function refusal(flag: string | undefined, environment: string | undefined): string {
  let thrown: unknown;
  try {
    redisTarget(flag, environment);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  const { message } = thrown as ConfigError;
  expect(message).not.toContain('\n');
  for (const form of formsOf(password, 4)) expect(message).not.toContain(form);
  return message;
}

test('no flag and no variable: no Redis, the fake keeps its state in memory', () => {
  expect(redisTarget(undefined, undefined)).toBeUndefined();
  expect(redisTarget(undefined, '')).toBeUndefined();
});

test('the flag wins over the variable; both schemes and a database number are taken', () => {
  expect(redisTarget('redis://127.0.0.1:6390', 'redis://other:1')).toEqual({
    url: 'redis://127.0.0.1:6390',
    shown: 'redis://127.0.0.1:6390',
  });
  expect(redisTarget(undefined, 'rediss://cache.internal:6380/3')?.url).toBe(
    'rediss://cache.internal:6380/3',
  );
});

test('a password is taken from the variable, and shown masked', () => {
  const target = redisTarget(undefined, withPassword);
  expect(target?.url).toBe(withPassword);
  expect(target?.shown).toBe('redis://fleet:***@127.0.0.1:6390/2');
});

test('a password on the command line is refused in one line that does not hold it', () => {
  expect(refusal(withPassword, undefined)).toBe(
    'petstore-fake: --redis must not carry a password (it would show in every process listing): give the URL in PETSTORE_REDIS_URL instead',
  );
});

test('what is not a Redis URL is refused in one line naming where it came from', () => {
  expect(refusal('127.0.0.1:6379', undefined)).toContain('--redis must be a redis:// or rediss://');
  expect(refusal(undefined, `http://fleet:${encodeURIComponent(password)}@host/`)).toBe(
    'petstore-fake: PETSTORE_REDIS_URL must be a redis:// or rediss:// URL, got one starting "http:"',
  );
  expect(refusal(undefined, `redis://:${encodeURIComponent(password)}@host/fleet`)).toContain(
    'PETSTORE_REDIS_URL path must be a database number such as /0',
  );
});
