import { expect, test } from 'vitest';
import { ConfigError } from '../../base/config-error.ts';
import { openapiDocument } from '../../base/contract/openapi.generated.ts';
import { listLimits, operationIds } from '../../base/contract/schemas.ts';
import { authenticate } from '../../base/quota/authenticate.ts';
import { keyFormatProblem } from '../../base/quota/key-format.ts';
import { parseKeysFile } from '../../base/quota/plans.ts';
import { createFake } from '../../core/fake.ts';
import { defaults, resolveConfig } from './config.ts';

test('a bad option throws a ConfigError that names the option and the problem apart', async () => {
  for (const [options, option] of [
    [{ maxPets: 0 }, 'maxPets'],
    [{ ban: { threshold: 0 } }, 'ban.threshold'],
    [{ retryAfterFormat: 'minutes' as 'seconds' }, 'retryAfterFormat'],
    [{ enterpriseLimits: { perMinute: 0, perDay: 1 } }, 'enterpriseLimits.perMinute'],
    [{ controlAccess: { token: 'too-short' } }, 'controlAccess.token'],
    [{ origin: 'not a url' }, 'origin'],
    [{ allowedHosts: ['x.test:80'] }, 'allowedHosts[0]'],
  ] as const) {
    let thrown: unknown;
    try {
      // Through createFake: a policy's own options (the ban's) are checked where it is built.
      await createFake({ seed: 'empty', ...options });
    } catch (error) {
      thrown = error;
    }
    expect(thrown, option).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).option).toBe(option);
    expect((thrown as ConfigError).message).toBe(
      `petstore-fake: ${option} ${(thrown as ConfigError).problem}`,
    );
  }
});

test('the control token rule (at least 16 characters) is stated in the error', () => {
  expect(() => resolveConfig({ controlAccess: { token: 'x'.repeat(15) } })).toThrow(
    'must be at least 16 characters',
  );
  expect(resolveConfig({ controlAccess: { token: 'x'.repeat(16) } }).controlAccess).toEqual({
    token: 'x'.repeat(16),
  });
});

test('defaults stand in one place: the origin is built from the default host and port', () => {
  const config = resolveConfig();
  expect(config.origins).toEqual([defaults.origin, defaults.stagingOrigin]);
  expect(defaults.origin).toBe(`http://${defaults.host}:${defaults.port}`);
  expect(config.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
});

test('listPets limits and the operation ids are read from the OpenAPI document', () => {
  const limit = openapiDocument.components.parameters.limit.schema;
  expect(listLimits).toEqual({ min: limit.minimum, max: limit.maximum, default: limit.default });
  expect(listLimits).toEqual({ min: 1, max: 100, default: 20 });
  expect(operationIds).toEqual(['listPets', 'createPet', 'getPet']);
});

test('one key format: a key the keys file accepts is one a Bearer header can carry, and no other', () => {
  for (const key of ['free-demo-key', 'a.b_c~d+e/f==', 'x'.repeat(256)]) {
    expect(keyFormatProblem(key), key).toBeUndefined();
    const file = parseKeysFile({
      plans: { p: { perMinute: 1, perDay: 1 } },
      keys: [{ id: 'k', key, plan: 'p' }],
    });
    const entry = { ...file.keys[0], plan: 'p' } as never;
    expect(authenticate(`Bearer ${key}`, [entry]).ok, key).toBe(true);
  }
  for (const key of [
    'has space',
    'quote"key1',
    'short',
    'x'.repeat(257),
    'bang!bang!',
    'a=b=cdefgh',
  ]) {
    expect(keyFormatProblem(key), key).toBeDefined();
    expect(() =>
      parseKeysFile({
        plans: { p: { perMinute: 1, perDay: 1 } },
        keys: [{ id: 'k', key, plan: 'p' }],
      }),
    ).toThrow(ConfigError);
  }
});

test('a keys file that gives two ids one secret is refused', () => {
  expect(() =>
    parseKeysFile({
      plans: { p: { perMinute: 1, perDay: 1 } },
      keys: [
        { id: 'a', key: 'same-secret-1', plan: 'p' },
        { id: 'b', key: 'same-secret-1', plan: 'p' },
      ],
    }),
  ).toThrow('keys[1].key is the same secret as an earlier key');
});
