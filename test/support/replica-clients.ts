/**
 * For the replicas' tests: a redis-server of the test file's own (redis-server.ts) and `count`
 * replica clients connected to it (mock/replicas/replica-redis.ts), started before the file's
 * tests and gone after them. A client's error event fails the test: none is expected while the
 * file's Redis runs (a test that stops Redis makes a client of its own).
 * @example const { clients } = replicaClients(2); // clients[0], clients[1] in each test
 */
import { afterAll, beforeAll } from 'vitest';
import { type ReplicaRedis, replicaRedis } from '../../mock/replicas/replica-redis.ts';
import { type RedisServer, startRedisServer } from './redis-server.ts';

/** The file's Redis and its clients, filled before its first test. */
interface ReplicaClients {
  /** The connected clients, in the order they were made. */
  readonly clients: ReplicaRedis[];
  /** The file's redis-server. */
  server(): RedisServer;
}

/** Starts a redis-server and `count` connected clients for the tests of the calling file. */
export function replicaClients(count = 1): ReplicaClients {
  let server: RedisServer | undefined;
  const clients: ReplicaRedis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    for (let index = 0; index < count; index++) {
      const client = replicaRedis(server.url);
      client.on('error', (error) => {
        throw error;
      });
      await client.connect();
      clients.push(client);
    }
  }, 20_000);
  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await server?.remove();
  });
  return {
    clients,
    server() {
      if (server === undefined)
        throw new Error('the replicas test reads its Redis before beforeAll');
      return server;
    },
  };
}
