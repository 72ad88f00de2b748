/**
 * The part of a fleet's state that control calls change and every request reads: the virtual
 * clock (set, advanced, frozen), the keys (added, their plans and limits changed), and forced
 * answers, stubs and chaos (whose counts and draws a request spends). It is
 * small and changes seldom, so each replica holds a copy and checks, before it answers, that the
 * fleet's version is still the one its copy was read at: one short script, which loads the new
 * state only when the version moved. A control call answers only once its change is saved and
 * the version bumped, so the very next request, on whichever replica, sees it; a change is saved
 * only on the version it was made on, so two control calls at once on two replicas never lose
 * one of them.
 *
 * Redis holds the keys as the keys file does, secrets included: the other replicas authenticate
 * with them and hide them in what they write. Protect the Redis as the keys file is protected.
 */
import type { ClockState } from '../base/clock/clock.ts';
import { parseJson, stringifyJson } from '../base/contract/lossless-json.ts';
import type { KeyEntry } from '../base/quota/plans.ts';
import { SharedStateError } from '../pipeline/shared-state.ts';
import { fleetKey } from './redis-keys.ts';
import type { ReplicaRedis } from './replica-redis.ts';

/**
 * The fleet's shared control state, as plain data: the clock, the keys, and the saved state of
 * each policy that is no recorder (forced answers, stubs and chaos), by its name.
 */
export interface FleetControlState {
  readonly clock: ClockState;
  readonly keys: readonly KeyEntry[];
  readonly policies: Readonly<Record<string, unknown>>;
}

/**
 * The fleet's record under this replica's epoch is gone: Redis lost its data (a restart without
 * persistence, a flush) or a new fleet was founded under the prefix. The replica answers 503
 * until a control reset starts the fleet again; it never re-seeds by itself.
 */
export class FleetLostError extends SharedStateError {
  override readonly name = 'FleetLostError';
  constructor(prefix: string) {
    super(
      'lost',
      `petstore-fake: the fleet's record under the Redis prefix ${JSON.stringify(prefix)} is gone (Redis lost its data, or another fleet replaced it); POST /__control/reset starts the fleet again`,
    );
  }
}

/**
 * The fleet's control state moved since this replica's copy was read: nothing was written, and
 * the request runs again once the copy is refreshed.
 */
export class FleetStaleError extends SharedStateError {
  override readonly name = 'FleetStaleError';
  constructor() {
    super(
      'stale',
      "petstore-fake: this replica's copy of the fleet's clock and keys is older than the fleet's",
    );
  }
}

/**
 * A script's reply once its fleet check (fleet-check-lua.ts) passed, or the check's refusal
 * thrown: FleetLostError for the fleet `prefix` gone, FleetStaleError for a copy behind it.
 */
export function checkedReply<Reply>(reply: Reply | 'lost' | 'stale', prefix: string): Reply {
  if (reply === 'lost') throw new FleetLostError(prefix);
  if (reply === 'stale') throw new FleetStaleError();
  return reply;
}

/** What a check found: the copy is current, or the state it should hold now. */
type FleetCheck =
  | { readonly changed: false; readonly redisMs: number }
  | {
      readonly changed: true;
      readonly redisMs: number;
      readonly version: string;
      /** `undefined` for a fleet whose state no control call saved: the starting state. */
      readonly state: FleetControlState | undefined;
    };

/** The fleet's control state in Redis, for one replica of the fleet `prefix` at `epoch`. */
export interface FleetStateStore {
  /**
   * Saves `state`, a change made on the fleet's version `madeOn`, and bumps the version;
   * resolves with the new version, or `undefined` when another replica saved a change since
   * (the caller reads the fleet's state again and makes its change on that).
   */
  save(madeOn: string, state: FleetControlState): Promise<string | undefined>;
  /**
   * Whether the fleet's version is still `version` (a replica that joined holds `'0'`, the
   * version of a fleet no control call changed), and the new state when it is not.
   */
  check(version: string): Promise<FleetCheck>;
}

/**
 * The fleet's control state over `redis` (connected, with the fleet's scripts), for the replica
 * that holds `fleet`'s epoch (read at each call: a replica that joins a fleet founded again holds
 * the new one).
 */
export function fleetStateStore(
  redis: ReplicaRedis,
  prefix: string,
  fleet: { readonly epoch: string },
): FleetStateStore {
  const key = fleetKey(prefix);
  return {
    async save(madeOn, state) {
      const reply = await redis.saveFleetState(
        key,
        fleet.epoch,
        madeOn,
        JSON.stringify(state.clock),
        JSON.stringify(state.keys),
        stringifyJson(state.policies),
      );
      if (reply.outcome === 'lost') throw new FleetLostError(prefix);
      return reply.outcome === 'saved' ? reply.version : undefined;
    },
    async check(version) {
      const reply = await redis.checkFleetState(key, fleet.epoch, version);
      if (reply.outcome === 'lost') throw new FleetLostError(prefix);
      if (reply.outcome === 'same') return { changed: false, redisMs: reply.redisMs };
      // A fleet no control call changed yet holds no state: its replicas' starting state.
      const state: FleetControlState | undefined =
        reply.clockJson === ''
          ? undefined
          : {
              clock: JSON.parse(reply.clockJson) as ClockState,
              keys: JSON.parse(reply.keysJson) as KeyEntry[],
              policies:
                reply.policiesJson === ''
                  ? {}
                  : (parseJson(reply.policiesJson) as Record<string, unknown>),
            };
      return { changed: true, redisMs: reply.redisMs, version: reply.version, state };
    },
  };
}
