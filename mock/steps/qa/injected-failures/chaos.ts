/**
 * Seeded chaos: per operation and key, a share of answers replaced by 429 (with Retry-After),
 * 500, 502, 503 (with Retry-After) or 504, a share of connections dropped, and latency drawn from
 * a distribution. Each (operation, key) pair draws from its own stream of the seed, so the same
 * seed gives the same answers to the same requests however other keys' traffic interleaves.
 * The pipeline step that applies it is injected-failure-step.ts.
 */
import type { OperationId } from '../../../base/contract/types.ts';
import {
  type ChaosRule,
  type ChaosSettings,
  type ChaosStatus,
  chaosStatuses,
} from './chaos-settings.ts';
import { seededRandom } from './seeded-random.ts';

/** What chaos does to one request. */
export interface ChaosDecision {
  /** Answer as usual, drop the connection, or answer with a chaos status instead. */
  readonly outcome: 'pass' | 'drop' | ChaosStatus;
  /** Milliseconds of the fake's clock the answer is held back. */
  readonly latencyMs: number;
  readonly retryAfterSeconds: number;
  /** The seed it was drawn from, which a chaos answer names. */
  readonly seed: number;
}

/** The chaos of one fake: its settings and one random stream per operation and key. */
interface Chaos {
  /** The settings in force, or `null` for none. */
  settings(): ChaosSettings | null;
  /**
   * Replaces the settings (already checked) and restarts every stream from the seed, then moves
   * each named stream `draws[name]` draws on (where a saved chaos stood).
   */
  set(settings: ChaosSettings | null, draws?: Readonly<Record<string, number>>): void;
  /** What chaos does to the next request of `operationId` on `keyId`, or `undefined` when no rule applies. */
  decide(operationId: OperationId, keyId: string): ChaosDecision | undefined;
  /** How far each stream has drawn, by stream name: with the settings, where chaos stands. */
  draws(): Record<string, number>;
}

/** Creates a fake's chaos, starting with `initial` (none by default). */
export function createChaos(initial: ChaosSettings | null = null): Chaos {
  let current = initial;
  let streams = new Map<string, { readonly next: () => number; draws: number }>();
  const draw = (seed: number, name: string) => {
    let stream = streams.get(name);
    if (stream === undefined) {
      stream = { next: seededRandom(seed, name), draws: 0 };
      streams.set(name, stream);
    }
    stream.draws += 1;
    return stream.next();
  };
  return {
    settings: () => current,
    set(settings, draws = {}) {
      current = settings;
      streams = new Map();
      if (settings === null) return;
      for (const [name, count] of Object.entries(draws)) {
        for (let i = 0; i < count; i++) draw(settings.seed, name);
      }
    },
    draws: () => Object.fromEntries([...streams].map(([name, stream]) => [name, stream.draws])),
    decide(operationId, keyId) {
      if (current === null) return undefined;
      const rule = current.rules.find(
        (r) =>
          (r.operationId === undefined || r.operationId === operationId) &&
          (r.keyId === undefined || r.keyId === keyId),
      );
      if (rule === undefined) return undefined;
      const { seed } = current;
      const name = `${operationId}|${keyId}`;
      // Always two draws per request, so a rule's shares never shift the latency sequence.
      const outcome = pick(rule, draw(seed, name));
      return {
        outcome,
        latencyMs: latencyOf(rule, draw(seed, name)),
        retryAfterSeconds: rule.retryAfterSeconds ?? 1,
        seed,
      };
    },
  };
}

function pick(rule: ChaosRule, draw: number): ChaosDecision['outcome'] {
  let edge = rule.drop ?? 0;
  if (draw < edge) return 'drop';
  for (const status of chaosStatuses) {
    edge += rule.errors?.[status] ?? 0;
    if (draw < edge) return status;
  }
  return 'pass';
}

function latencyOf(rule: ChaosRule, draw: number): number {
  const latency = rule.latency;
  if (latency === undefined) return 0;
  if (latency.distribution === 'uniform')
    return Math.round(latency.minMs + draw * (latency.maxMs - latency.minMs));
  return Math.round(Math.min(latency.maxMs, -Math.log(1 - draw) * latency.meanMs));
}
