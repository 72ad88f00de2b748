/**
 * An in-memory Redis for limiter libraries whose algorithm is a Redis Lua script: ioredis-mock
 * 8 runs the script in fengari (Lua 5.3), where Redis runs Lua 5.1. Two differences matter to
 * the scripts the servers load, and this wrapper restores Redis's reading of them: a script's
 * leading `#!lua flags=...` line (Redis 7 script flags) and `math.max` over numeric strings
 * (ARGV values are strings; Lua 5.1 compares them as numbers, Lua 5.3 refuses).
 */
import RedisMock from 'ioredis-mock';

const redis51Prelude =
  'local max51 = math.max\nmath.max = function(...) local t = {...} for i = 1, #t do t[i] = tonumber(t[i]) end return max51(table.unpack(t)) end\n';

/** A script as Redis would read it, for fengari. */
function asRedisReadsIt(script: string): string {
  return redis51Prelude + script.replace(/^#!lua[^\n]*\n/, '');
}

/**
 * An in-memory Redis with the script commands the limiter libraries call: ioredis's
 * `defineCommand` (each defined command becomes a method, as on ioredis) and `del`, which
 * redis-gcra's README asks of "a Redis-client-like wrapper", and @upstash/redis's
 * `eval(script, keys, args)` / `evalsha`, which @upstash/ratelimit calls.
 */
export type LuaRedis = Record<string, unknown> & {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string | Buffer }): void;
  del(key: string): Promise<number>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown>;
};

/** Servers started in this process, each with a Redis of its own. */
let started = 0;

/**
 * A fresh in-memory Redis. ioredis-mock shares one data set between instances of one
 * host:port/db (lib/index.js, `keyData`), so each gets a host name of its own: two servers in one
 * process (tests run concurrently) must not share their keys' windows.
 */
export function luaRedis(): LuaRedis {
  started += 1;
  const redis = new RedisMock({ host: `fixture-${process.pid}-${started}` }) as unknown as Record<
    string,
    (...args: unknown[]) => Promise<unknown>
  > &
    InstanceType<typeof RedisMock>;
  const wrapper: LuaRedis = {
    defineCommand(name, definition) {
      redis.defineCommand(name, { ...definition, lua: asRedisReadsIt(String(definition.lua)) });
      wrapper[name] = (...args: unknown[]) => redis[name]?.(...args);
    },
    del: (key) => redis.del(key),
    eval: (script, keys, args) =>
      redis.eval(asRedisReadsIt(script), keys.length, ...keys, ...(args as string[])),
    // No script is cached: @upstash/ratelimit then sends it whole (its `eval` fallback,
    // dist/index.mjs safeEval).
    evalsha: async () => {
      throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    },
  };
  return wrapper;
}
