/**
 * The fake's options and their documented defaults. Every default stands where the interface says
 * "not shown"; the README's "Choices the fake makes" table mirrors this file.
 */

import { ConfigError } from '../../base/config-error.ts';
import { type DeprecationSchedule, getPetDeprecation } from '../../base/contract/deprecation.ts';
import type { PetStatus } from '../../base/contract/types.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';
import { assertLimits, type Limits } from '../../base/quota/plans.ts';
import type { RetryAfterFormat } from '../../base/quota/retry-after.ts';
import { type ListOrder, listOrders } from './list-order.ts';
import {
  type BadQueryChoice,
  choiceValues,
  type FakeProfile,
  parseProfile,
  profileOptions,
} from './profile.ts';

/** One line of the request log: never the key itself, only its public id. */
export interface ExchangeRecord {
  readonly method: string;
  /** Path and query, with credential-like query values and any known key redacted. */
  readonly url: string;
  readonly status: number;
  /** The key's public id, `-` when no key was sent, `unknown` when it matched none. */
  readonly keyId: string;
  /** Who sent it, as the client report names it (`X-Client-Id`, else `User-Agent`); absent on control requests. */
  readonly clientId?: string;
  readonly operationId: string | undefined;
  readonly durationMs: number;
  /** The `code` of an error answer (e.g. `invalid_json`); absent on success. */
  readonly errorCode?: string;
  /** Who put the answer in the fake's place (`stubbed`, `forced`, `chaos`, `prefer`); absent for its own. */
  readonly injected?: string;
  /** `true` for a request to the control surface (it has no key and no operation). */
  readonly control?: boolean;
  /** For control requests: what changed, in words (never a secret), e.g. `reset to empty (0 pets)`. */
  readonly controlAction?: string;
}

/**
 * The settings more than one part of the fake reads (origins, Hosts, the Retry-After format, the
 * routes' limits); every field is optional. A setting only one policy reads is declared by that
 * policy and joins `createFake`'s options through its registration (core/assembly.ts).
 */
export interface FakeOptions {
  /** Origin of the production base URL (the fake adds `/v1`). Default `http://127.0.0.1:4010`. */
  readonly origin?: string;
  /** Origin of the staging base URL, or `false` for none. Default `http://127.0.0.1:4011`. */
  readonly stagingOrigin?: string | false;
  /** Status given to a created pet that has none. Default `available`. */
  readonly defaultStatus?: PetStatus;
  /** Longest accepted `name`, in characters. Default 256. */
  readonly maxNameLength?: number;
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Format of `Retry-After`. Default `seconds`. */
  readonly retryAfterFormat?: RetryAfterFormat;
  /** Limits of the Enterprise plan, which the interface calls "custom". */
  readonly enterpriseLimits?: Limits;
  /** Deprecation and sunset dates of getPet. */
  readonly deprecation?: Partial<DeprecationSchedule>;
  /** Path prefix of the QA control surface. Default `/__control`. */
  readonly controlPrefix?: string;
  /**
   * Who may use the control surface: `'open'` (default; the HTTP door binds loopback), a token
   * that requests must send as `X-Control-Token`, or `'disabled'`.
   */
  readonly controlAccess?: 'open' | 'disabled' | { readonly token: string };
  /** Most pets the store holds; creates beyond it get 507. Default 1,000,000. */
  readonly maxPets?: number;
  /**
   * Host names the fake answers to besides its origins' own, `localhost`, `127.0.0.1` and `[::1]`
   * (a leading dot admits every subdomain: `.example.test`). Any other `Host` gets 403
   * `host_not_allowed`, which stops DNS rebinding. Default: none.
   */
  readonly allowedHosts?: readonly string[];
  /** Called once per answered request, for logging. */
  readonly onExchange?: (record: ExchangeRecord) => void;
  /**
   * Choices learned from a real server (`petstore-contract calibrate`); options given beside it
   * win. See core/profile.ts.
   */
  readonly profile?: FakeProfile;
  /** Fields NewPet does not define: `ignore` them (default) or `refuse` the body with 400. */
  readonly unknownFields?: 'ignore' | 'refuse';
  /** Status for a petId that is not an int64: 404 `not_found` (default) or 400 `invalid_id`. */
  readonly malformedIdStatus?: 400 | 404;
  /** listPets with a bad `limit` or `status`: `refuse` (400, default), `clamp` or `ignore`. */
  readonly badQuery?: BadQueryChoice;
  /** Codes to send instead of the fake's own, by the fake's code (e.g. `{ not_found: 'NOT_FOUND' }`). */
  readonly errorCodes?: Readonly<Partial<Record<ErrorCode, string>>>;
  /**
   * Order of `GET /pets`: `newest-first` (default: an app's new pet is on its next list) or
   * `oldest-first` (id order).
   */
  readonly listOrder?: ListOrder;
}

/** Options with every default filled in. */
export interface ResolvedConfig {
  readonly origins: readonly string[];
  readonly basePath: '/v1';
  readonly defaultStatus: PetStatus;
  readonly maxNameLength: number;
  readonly maxBodyBytes: number;
  readonly retryAfterFormat: RetryAfterFormat;
  readonly enterpriseLimits: Limits | undefined;
  readonly deprecation: DeprecationSchedule;
  readonly controlPrefix: string;
  readonly controlAccess: 'open' | 'disabled' | { readonly token: string };
  readonly maxPets: number;
  /** Every Host name answered (lower case, without port); `.suffix` entries admit subdomains. */
  readonly allowedHosts: readonly string[];
  readonly onExchange: ((record: ExchangeRecord) => void) | undefined;
  readonly unknownFields: 'ignore' | 'refuse';
  readonly malformedIdStatus: 400 | 404;
  readonly badQuery: BadQueryChoice;
  readonly errorCodes: Readonly<Partial<Record<ErrorCode, string>>>;
  readonly listOrder: ListOrder;
}

const defaultHost = '127.0.0.1';
const defaultPort = 4010;
/** The fake's defaults, documented in the README (and printed by `npm start -- --help`). */
export const defaults = {
  host: defaultHost,
  port: defaultPort,
  origin: `http://${defaultHost}:${defaultPort}`,
  /** Staging sits on the next port up. */
  stagingOrigin: `http://${defaultHost}:${defaultPort + 1}`,
  defaultStatus: 'available',
  maxNameLength: 256,
  maxBodyBytes: 1024 * 1024,
  retryAfterFormat: 'seconds',
  controlPrefix: '/__control',
  maxPets: 1_000_000,
  unknownFields: 'ignore',
  malformedIdStatus: 404,
  badQuery: 'refuse',
  listOrder: 'newest-first',
} as const;

/** Shortest control token accepted: long enough that it cannot be guessed over HTTP. */
export const minControlTokenLength = 16;

/** Host names every fake answers to: the loopback names (its origins' own are added). */
const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];
const hostNamePattern = /^(\.?[a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/;

function normaliseOrigin(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      option,
      `must be an absolute http(s) origin such as ${defaults.origin}, got "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(option, `must use http or https, got "${url.protocol}"`);
  }
  return url.origin;
}

/** The one check of a setting that must be a positive integer (a policy's own ones too). */
export function positiveInteger(value: number, option: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(option, `must be a positive integer, got ${value}`);
  }
  return value;
}

function resolveControlAccess(
  access: FakeOptions['controlAccess'],
): ResolvedConfig['controlAccess'] {
  if (access === undefined || access === 'open' || access === 'disabled') return access ?? 'open';
  if (typeof access.token !== 'string' || access.token.length < minControlTokenLength) {
    throw new ConfigError(
      'controlAccess.token',
      `must be at least ${minControlTokenLength} characters (got ${String(access.token?.length ?? 0)})`,
    );
  }
  return access;
}

/**
 * The `Host` names a server on `origins` answers: loopback's, the origins' own, and `extra`
 * (checked: a name without scheme or port; a ConfigError `allowedHosts[i]` otherwise).
 */
export function resolveAllowedHosts(
  origins: readonly string[],
  extra: readonly string[],
): string[] {
  const hosts = [...loopbackHosts, ...origins.map((origin) => new URL(origin).hostname)];
  for (const [index, raw] of extra.entries()) {
    const host = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    if (!hostNamePattern.test(host)) {
      throw new ConfigError(
        `allowedHosts[${index}]`,
        `must be a host name without scheme or port (e.g. my-laptop.local, or .example.test for its subdomains), got "${String(raw)}"`,
      );
    }
    hosts.push(host);
  }
  return [...new Set(hosts)];
}

/** The options with a profile's choices under them (options given beside it win). */
export function withProfile<Options extends FakeOptions>(given: Options): Options {
  return given.profile === undefined
    ? given
    : { ...profileOptions(parseProfile(given.profile)), ...given };
}

/**
 * Fills in defaults and rejects bad options with a ConfigError that says how to fix them. A
 * profile's choices are put under the options first, once (withProfile; createFake does).
 */
export function resolveConfig(options: FakeOptions = {}): ResolvedConfig {
  const origins = [normaliseOrigin(options.origin ?? defaults.origin, 'origin')];
  const staging = options.stagingOrigin ?? defaults.stagingOrigin;
  if (staging !== false) origins.push(normaliseOrigin(staging, 'stagingOrigin'));
  const choose = <T>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T => {
    if (value === undefined) return fallback;
    if (!allowed.includes(value))
      throw new ConfigError(
        name,
        `must be one of: ${allowed.join(', ')}; got ${JSON.stringify(value)}`,
      );
    return value;
  };
  const retryAfterFormat = choose(
    'retryAfterFormat',
    options.retryAfterFormat,
    choiceValues.retryAfterFormat,
    defaults.retryAfterFormat,
  );
  const unknownFields = choose(
    'unknownFields',
    options.unknownFields,
    choiceValues.unknownFields,
    defaults.unknownFields,
  );
  const malformedIdStatus = choose(
    'malformedIdStatus',
    options.malformedIdStatus,
    choiceValues.malformedIdStatus,
    defaults.malformedIdStatus,
  );
  const badQuery = choose('badQuery', options.badQuery, choiceValues.badQuery, defaults.badQuery);
  const listOrder = choose('listOrder', options.listOrder, listOrders, defaults.listOrder);
  const controlPrefix = options.controlPrefix ?? defaults.controlPrefix;
  if (!/^\/[A-Za-z0-9_-]+$/.test(controlPrefix) || controlPrefix === '/v1') {
    throw new ConfigError(
      'controlPrefix',
      `must be one path segment outside /v1, such as ${defaults.controlPrefix}; got "${controlPrefix}"`,
    );
  }
  if (options.enterpriseLimits !== undefined)
    assertLimits(options.enterpriseLimits, 'enterpriseLimits');
  const unique = [...new Set(origins)];
  return {
    origins: unique,
    basePath: '/v1',
    defaultStatus: options.defaultStatus ?? defaults.defaultStatus,
    maxNameLength: positiveInteger(
      options.maxNameLength ?? defaults.maxNameLength,
      'maxNameLength',
    ),
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? defaults.maxBodyBytes, 'maxBodyBytes'),
    retryAfterFormat,
    enterpriseLimits: options.enterpriseLimits,
    deprecation: { ...getPetDeprecation, ...options.deprecation },
    controlPrefix,
    controlAccess: resolveControlAccess(options.controlAccess),
    maxPets: positiveInteger(options.maxPets ?? defaults.maxPets, 'maxPets'),
    allowedHosts: resolveAllowedHosts(unique, options.allowedHosts ?? []),
    onExchange: options.onExchange,
    unknownFields,
    malformedIdStatus,
    badQuery,
    errorCodes: options.errorCodes ?? {},
    listOrder,
  };
}
