/**
 * The fake's options and their documented defaults. Every default stands where the interface says
 * "not shown"; the README's "Choices the fake makes" table mirrors this file.
 */
import type { PetStatus } from '../contract/types.ts';
import { type BanPolicy, defaultBanPolicy } from '../policies/ban.ts';
import { type DeprecationSchedule, getPetDeprecation } from '../policies/deprecation.ts';
import type { Limits } from '../policies/plans.ts';

/** How `Retry-After` is written: delta-seconds (`"30"`) or an HTTP-date. */
export type RetryAfterFormat = 'seconds' | 'http-date';

/** One line of the request log: never the key itself, only its public id. */
export interface ExchangeRecord {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The key's public id, `-` when no key was sent, `unknown` when it matched none. */
  readonly keyId: string;
  readonly operationId: string | undefined;
  readonly durationMs: number;
}

/** Options of `createFake`; every field is optional. */
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
  /** When keys get banned. Default: 5 requests during Retry-After, banned 300 s. */
  readonly ban?: Partial<BanPolicy>;
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
  /** Called once per answered request, for logging. */
  readonly onExchange?: (record: ExchangeRecord) => void;
}

/** Options with every default filled in. */
export interface ResolvedConfig {
  readonly origins: readonly string[];
  readonly basePath: '/v1';
  readonly defaultStatus: PetStatus;
  readonly maxNameLength: number;
  readonly maxBodyBytes: number;
  readonly retryAfterFormat: RetryAfterFormat;
  readonly ban: BanPolicy;
  readonly enterpriseLimits: Limits | undefined;
  readonly deprecation: DeprecationSchedule;
  readonly controlPrefix: string;
  readonly controlAccess: 'open' | 'disabled' | { readonly token: string };
  readonly maxPets: number;
  readonly onExchange: ((record: ExchangeRecord) => void) | undefined;
}

/** The fake's defaults, documented in the README. */
export const defaults = {
  origin: 'http://127.0.0.1:4010',
  stagingOrigin: 'http://127.0.0.1:4011',
  defaultStatus: 'available',
  maxNameLength: 256,
  maxBodyBytes: 1024 * 1024,
  retryAfterFormat: 'seconds',
  controlPrefix: '/__control',
  maxPets: 1_000_000,
} as const;

function normaliseOrigin(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `petstore-fake: ${option} must be an absolute http(s) origin such as http://127.0.0.1:4010, got "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`petstore-fake: ${option} must use http or https, got "${url.protocol}"`);
  }
  return url.origin;
}

function positiveInteger(value: number, option: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`petstore-fake: ${option} must be a positive integer, got ${value}`);
  }
  return value;
}

function resolveControlAccess(
  access: FakeOptions['controlAccess'],
): ResolvedConfig['controlAccess'] {
  if (access === undefined || access === 'open' || access === 'disabled') return access ?? 'open';
  if (typeof access.token !== 'string' || access.token.length < 16) {
    throw new Error('petstore-fake: controlAccess.token must be at least 16 characters');
  }
  return access;
}

/** Fills in defaults and rejects bad options with a message that says how to fix them. */
export function resolveConfig(options: FakeOptions = {}): ResolvedConfig {
  const origins = [normaliseOrigin(options.origin ?? defaults.origin, 'origin')];
  const staging = options.stagingOrigin ?? defaults.stagingOrigin;
  if (staging !== false) origins.push(normaliseOrigin(staging, 'stagingOrigin'));
  const retryAfterFormat = options.retryAfterFormat ?? defaults.retryAfterFormat;
  if (retryAfterFormat !== 'seconds' && retryAfterFormat !== 'http-date') {
    throw new Error(
      `petstore-fake: retryAfterFormat must be one of: seconds, http-date; got "${String(retryAfterFormat)}"`,
    );
  }
  const controlPrefix = options.controlPrefix ?? defaults.controlPrefix;
  if (!/^\/[A-Za-z0-9_-]+$/.test(controlPrefix) || controlPrefix === '/v1') {
    throw new Error(
      `petstore-fake: controlPrefix must be one path segment outside /v1, such as /__control; got "${controlPrefix}"`,
    );
  }
  return {
    origins: [...new Set(origins)],
    basePath: '/v1',
    defaultStatus: options.defaultStatus ?? defaults.defaultStatus,
    maxNameLength: positiveInteger(
      options.maxNameLength ?? defaults.maxNameLength,
      'maxNameLength',
    ),
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? defaults.maxBodyBytes, 'maxBodyBytes'),
    retryAfterFormat,
    ban: {
      threshold: positiveInteger(
        options.ban?.threshold ?? defaultBanPolicy.threshold,
        'ban.threshold',
      ),
      durationSeconds: positiveInteger(
        options.ban?.durationSeconds ?? defaultBanPolicy.durationSeconds,
        'ban.durationSeconds',
      ),
    },
    enterpriseLimits: options.enterpriseLimits,
    deprecation: { ...getPetDeprecation, ...options.deprecation },
    controlPrefix,
    controlAccess: resolveControlAccess(options.controlAccess),
    maxPets: positiveInteger(options.maxPets ?? defaults.maxPets, 'maxPets'),
    onExchange: options.onExchange,
  };
}
