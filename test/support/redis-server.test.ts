import { existsSync } from 'node:fs';
import { createClient } from '@redis/client';
import { afterEach, expect, test } from 'vitest';
import { type RedisServer, startRedisServer } from './redis-server.ts';

const servers: RedisServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.remove()));
});

async function started(options: Parameters<typeof startRedisServer>[0] = {}) {
  const server = await startRedisServer(options);
  servers.push(server);
  return server;
}

// No reconnecting: a server that is down fails the call at once (node-redis retries by default).
const clientOf = (url: string) => createClient({ url, socket: { reconnectStrategy: false } });

/** Runs `work` on a fresh connection to `url`, closed afterwards. */
async function withClient<T>(
  url: string,
  work: (client: ReturnType<typeof clientOf>) => Promise<T>,
): Promise<T> {
  const client = clientOf(url);
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    client.destroy();
  }
}

test('a test redis-server listens on a free port of 127.0.0.1, never 6379, in a folder of its own, and remove() takes the folder away', async () => {
  const server = await started();
  expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
  expect(server.port).not.toBe(6379);
  const info = await withClient(server.url, (client) => client.info('persistence'));
  // redis.conf's own words (INFO persistence): no append-only file unless asked for.
  expect(info).toMatch(/aof_enabled:0/);
  const config = await withClient(server.url, (client) => client.configGet('save'));
  expect(config).toEqual({ save: '' });
  expect(existsSync(server.folder)).toBe(true);
  await server.remove();
  expect(existsSync(server.folder)).toBe(false);
});

test('without persistence, a restart after kill -9 finds Redis empty, on the same port', async () => {
  const server = await started();
  await withClient(server.url, (client) => client.set('pet', 'Nemo'));
  await server.kill();
  await server.restart();
  expect(await withClient(server.url, (client) => client.get('pet'))).toBeNull();
});

test('with appendfsync always, a write acknowledged before kill -9 is there after the restart', async () => {
  const server = await started({ appendOnly: 'always' });
  await withClient(server.url, (client) => client.set('pet', 'Nemo'));
  await server.kill();
  await expect(withClient(server.url, (client) => client.ping())).rejects.toThrow();
  await server.restart();
  expect(await withClient(server.url, (client) => client.get('pet'))).toBe('Nemo');
  // A clean stop keeps it too, and the server refuses a restart while it runs.
  await expect(server.restart()).rejects.toThrow(/still running/);
  await server.stop();
  await server.restart();
  expect(await withClient(server.url, (client) => client.get('pet'))).toBe('Nemo');
});

test('without redis-server on PATH, starting one throws one line naming the Debian package', async () => {
  const error = await startRedisServer({ searchPath: '/nonexistent' }).catch((thrown) => thrown);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).not.toContain('\n');
  expect((error as Error).message).toMatch(/Debian package redis-server/);
});
