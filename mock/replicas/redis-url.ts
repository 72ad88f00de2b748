/**
 * Where a replica finds its fleet's Redis: `--redis <url>` or PETSTORE_REDIS_URL, `redis://` or
 * `rediss://` (TLS), with an optional database number as the path (`redis://host:6379/2`).
 * Valkey speaks the same protocol and takes the same URLs. A URL with a password is taken only
 * from the environment, as the control token is: a command line shows in every process listing
 * and shell history. The URL is shown anywhere (the banner, an error) only with its password
 * masked.
 */
import { ConfigError } from '../base/config-error.ts';

/** The environment variable that may carry the fleet's Redis URL, password included. */
export const redisUrlVariable = 'PETSTORE_REDIS_URL';

/** A Redis URL a replica may connect to, and the form of it that may be shown. */
export interface RedisTarget {
  /** The URL as given, password included: for the client only. */
  readonly url: string;
  /** The URL with its password masked, for the banner and errors. */
  readonly shown: string;
}

/** The URL's text with any password replaced by `***`. */
function masked(url: URL): string {
  if (url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.password = '***';
  return copy.href;
}

/**
 * The Redis a replica uses: the flag's URL, else the variable's, else `undefined` (no replicas:
 * the fake keeps its state in memory). Throws a ConfigError (option `redis`) in one line that
 * never holds the password when the URL is not one, or when the flag's URL carries a password.
 */
export function redisTarget(
  fromFlag: string | undefined,
  fromEnvironment: string | undefined,
): RedisTarget | undefined {
  const given = fromFlag ?? (fromEnvironment === '' ? undefined : fromEnvironment);
  if (given === undefined) return undefined;
  const source = fromFlag === undefined ? redisUrlVariable : '--redis';
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ConfigError(
      source,
      'must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379',
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ConfigError(
      source,
      `must be a redis:// or rediss:// URL, got one starting ${JSON.stringify(url.protocol)}`,
    );
  if (fromFlag !== undefined && url.password !== '')
    throw new ConfigError(
      source,
      `must not carry a password (it would show in every process listing): give the URL in ${redisUrlVariable} instead`,
    );
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,5}$/.test(url.pathname))
    throw new ConfigError(
      source,
      `path must be a database number such as /0, got ${JSON.stringify(url.pathname.slice(0, 20))}`,
    );
  return { url: given, shown: masked(url) };
}
