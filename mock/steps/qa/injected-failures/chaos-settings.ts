/**
 * Chaos settings: which answers to spoil, how often, and how slowly, per operation and key. One
 * checker for every way in (`createFake({ chaos })`, `--chaos`, `POST /__control/chaos`), which
 * refuses the whole settings object with one message naming the field, before anything changes.
 */
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import { operationIds } from '../../../base/contract/schemas.ts';
import type { OperationId } from '../../../base/contract/types.ts';

/** Statuses chaos can answer with, instead of the real answer. */
export const chaosStatuses = ['429', '500', '502', '503', '504'] as const;

/** A status chaos can answer with. */
export type ChaosStatus = (typeof chaosStatuses)[number];

/** How long chaos holds an answer back, in milliseconds of the fake's clock. */
export type LatencyDistribution =
  | { readonly distribution: 'uniform'; readonly minMs: number; readonly maxMs: number }
  | { readonly distribution: 'exponential'; readonly meanMs: number; readonly maxMs: number };

/** One chaos rule: the first rule matching a request's operation and key applies. */
export interface ChaosRule {
  /** The operation it applies to; every operation when absent. */
  readonly operationId?: OperationId;
  /** The key id it applies to; every key when absent. */
  readonly keyId?: string;
  /** Share of answers (0 to 1) replaced by each status; with `drop`, at most 1 in all. */
  readonly errors?: Readonly<Partial<Record<ChaosStatus, number>>>;
  /** Share of requests whose connection is dropped without an answer. */
  readonly drop?: number;
  /** `Retry-After` of chaos 429 and 503 answers, in seconds (default 1). */
  readonly retryAfterSeconds?: number;
  /** Extra latency of every answer the rule applies to. */
  readonly latency?: LatencyDistribution;
}

/** Chaos settings: a seed (the same seed gives the same answers) and the rules. */
export interface ChaosSettings {
  readonly seed: number;
  readonly rules: readonly ChaosRule[];
}

/** The longest latency chaos adds: a minute, so a typo cannot hang a real-clock test for hours. */
const maxLatencyMs = 60_000;

type Problem = (message: string) => never;

function onlyFields(
  value: Record<string, unknown>,
  fields: readonly string[],
  where: string,
  fail: Problem,
) {
  const unknown = Object.keys(value).filter((field) => !fields.includes(field));
  if (unknown.length > 0)
    fail(
      `${where} has unknown field(s) ${unknown.map((f) => JSON.stringify(f.slice(0, 40))).join(', ')}; it takes ${fields.join(', ')}`,
    );
}

/** A number from 0 to `max`, such as `a share` or `a number of milliseconds`. */
function upTo(max: number, what: string, value: unknown, where: string, fail: Problem): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max)
    fail(`${where} must be ${what} from 0 to ${max}, got ${JSON.stringify(value)}`);
  return value as number;
}

/** The figure each latency distribution takes beside `maxMs`. */
const latencyFields = { uniform: 'minMs', exponential: 'meanMs' } as const;

function latencyOf(value: unknown, where: string, fail: Problem): LatencyDistribution {
  if (!isJsonObject(value)) fail(`${where} must be an object`);
  const { distribution } = value;
  if (distribution !== 'uniform' && distribution !== 'exponential')
    return fail(`${where}.distribution must be "uniform" or "exponential"`);
  const low = latencyFields[distribution];
  onlyFields(value, ['distribution', low, 'maxMs'], where, fail);
  const lowMs = upTo(maxLatencyMs, 'a number of milliseconds', value[low], `${where}.${low}`, fail);
  const maxMs = upTo(maxLatencyMs, 'a number of milliseconds', value.maxMs, `${where}.maxMs`, fail);
  if (distribution === 'exponential') return { distribution, meanMs: lowMs, maxMs };
  if (lowMs > maxMs) fail(`${where}.minMs must not exceed ${where}.maxMs`);
  return { distribution, minMs: lowMs, maxMs };
}

function ruleOf(rule: unknown, where: string, fail: Problem): ChaosRule {
  if (!isJsonObject(rule)) return fail(`${where} must be an object`);
  onlyFields(
    rule,
    ['operationId', 'keyId', 'errors', 'drop', 'retryAfterSeconds', 'latency'],
    where,
    fail,
  );
  const out: { -readonly [K in keyof ChaosRule]: ChaosRule[K] } = {};
  if (rule.operationId !== undefined) {
    if (!operationIds.includes(rule.operationId as OperationId))
      fail(`${where}.operationId must be one of: ${operationIds.join(', ')}`);
    out.operationId = rule.operationId as OperationId;
  }
  if (rule.keyId !== undefined) {
    if (typeof rule.keyId !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(rule.keyId))
      fail(`${where}.keyId must be a key id (1 to 64 characters of A-Z a-z 0-9 . _ -)`);
    out.keyId = rule.keyId as string;
  }
  let total = 0;
  if (rule.errors !== undefined) {
    const { errors } = rule;
    if (!isJsonObject(errors))
      return fail(`${where}.errors must be an object such as {"503": 0.1}`);
    onlyFields(errors, chaosStatuses, `${where}.errors`, fail);
    const shares: Partial<Record<ChaosStatus, number>> = {};
    for (const status of chaosStatuses) {
      if (errors[status] === undefined) continue;
      shares[status] = upTo(1, 'a share', errors[status], `${where}.errors.${status}`, fail);
      total += shares[status];
    }
    out.errors = shares;
  }
  if (rule.drop !== undefined) {
    out.drop = upTo(1, 'a share', rule.drop, `${where}.drop`, fail);
    total += out.drop;
  }
  // A little slack for shares such as 0.1 + 0.2 that do not add up exactly in binary.
  if (total > 1 + 1e-9) fail(`${where}: the error and drop shares add up to ${total}, more than 1`);
  if (rule.retryAfterSeconds !== undefined) {
    const seconds = rule.retryAfterSeconds as number;
    if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > 86_400)
      fail(`${where}.retryAfterSeconds must be an integer from 0 to 86400`);
    out.retryAfterSeconds = seconds;
  }
  if (rule.latency !== undefined) out.latency = latencyOf(rule.latency, `${where}.latency`, fail);
  return out;
}

/**
 * Checks chaos settings whole and returns a clean copy; `fail` is called with the first problem
 * (it throws the caller's own error type, so the control surface answers 400 and createFake
 * throws a ConfigError).
 */
export function checkChaosSettings(value: unknown, fail: Problem): ChaosSettings {
  if (!isJsonObject(value))
    return fail('chaos must be an object such as {"seed": 1, "rules": [...]}');
  onlyFields(value, ['seed', 'rules'], 'chaos', fail);
  const { seed, rules } = value;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed))
    fail(`chaos.seed must be an integer, got ${JSON.stringify(seed)}`);
  if (!Array.isArray(rules) || rules.length > 100)
    fail('chaos.rules must be an array of at most 100 rules');
  return {
    seed: seed as number,
    rules: (rules as unknown[]).map((rule, index) => ruleOf(rule, `chaos.rules[${index}]`, fail)),
  };
}
