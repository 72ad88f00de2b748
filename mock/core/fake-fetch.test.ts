/**
 * `fake.fetch` through the real clients that take a fetch as an option, as the README shows:
 * openapi-fetch and ky. No interception is installed, so only `fake.fetch` can answer.
 */
import ky from 'ky';
import createClient from 'openapi-fetch';
import { expect, test } from 'vitest';
import type { ErrorBody, Pet } from '../base/contract/types.ts';
import { createFake } from './fake.ts';

/** The part of the document this test calls, as openapi-typescript would generate it. */
interface paths {
  '/pets': {
    get: {
      parameters: { query?: { limit?: number; status?: 'available' | 'pending' | 'sold' } };
      responses: {
        200: { content: { 'application/json': Pet[] } };
        429: { content: { 'application/json': ErrorBody } };
      };
    };
  };
}

test('openapi-fetch and ky get their answers from fake.fetch, rate-limit headers included', async () => {
  const fake = await createFake();
  const client = createClient<paths>({
    baseUrl: 'http://127.0.0.1:4010/v1',
    fetch: fake.fetch,
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  const { data, response } = await client.GET('/pets', { params: { query: { limit: 2 } } });
  expect(data).toHaveLength(2);
  expect(response.headers.get('X-RateLimit-Remaining')).toBe('59');

  const api = ky.create({
    prefix: 'http://127.0.0.1:4010/v1/',
    fetch: fake.fetch,
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  const created = await api.post('pets', { json: { name: 'Rex', categoryId: 1 } }).json<Pet>();
  expect(created).toMatchObject({ name: 'Rex', status: 'available' });
  expect(await api.get(`pets/${created.id}`).json<Pet>()).toEqual(created);
});

test('fake.fetch answers a forced 429 with Retry-After in the configured format', async () => {
  const fake = await createFake({ retryAfterFormat: 'http-date' });
  fake.control.freezeTime(true);
  fake.control.force('listPets', 429, 1, 30);
  const before = Date.now();
  const res = await fake.fetch('http://127.0.0.1:4010/v1/pets', {
    headers: { Authorization: 'Bearer free-demo-key' },
  });
  expect(res.status).toBe(429);
  // An HTTP-date on real time (what a client compares it with), rounded up to the second.
  const retryAt = Date.parse(res.headers.get('Retry-After') ?? '');
  expect(retryAt % 1000).toBe(0);
  expect(retryAt).toBeGreaterThanOrEqual(before + 30_000);
  expect(retryAt).toBeLessThanOrEqual(Date.now() + 31_000);
  expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
});

test('fake.fetch refuses URLs that are not the fake, and honours an aborted signal', async () => {
  const fake = await createFake();
  await expect(fake.fetch('http://127.0.0.1:9/v1/pets')).rejects.toThrow(TypeError);
  await expect(fake.fetch('http://127.0.0.1:4010/other')).rejects.toThrow(
    /fake.fetch answers only/,
  );
  const controller = new AbortController();
  controller.abort();
  await expect(
    fake.fetch('http://127.0.0.1:4010/v1/pets', { signal: controller.signal }),
  ).rejects.toThrow(/abort/i);
});
