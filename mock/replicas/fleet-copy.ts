/**
 * A replica's copy of the fleet's control state (fleet-state.ts), kept in the clock and keys its
 * fake reads: `refresh` brings the copy to the fleet's version (one short
 * script; the state only when it moved), and `change` runs a control call's change on a fresh
 * copy and saves it on the version it was made on, running it again on what another replica
 * saved when two changed at once.
 */
import type { ControllableClock } from '../base/clock/clock.ts';
import { stringifyJson } from '../base/contract/lossless-json.ts';
import type { KeyEntry } from '../base/quota/plans.ts';
import type { PolicyState } from '../pipeline/pipeline.ts';
import type { FleetControlState, FleetStateStore } from './fleet-state.ts';

/** How often a change is run again when other replicas keep saving first. */
const changeAttempts = 8;

/**
 * The state a replica's fake reads: its clock, its keys, changed in place, and the states of the
 * policies the fleet shares (forced answers, stubs, chaos), saved and loaded through them.
 */
export interface ReplicaState {
  readonly clock: ControllableClock;
  readonly keys: KeyEntry[];
  readonly policies: readonly PolicyState[];
}

/** A replica's copy of the fleet's control state. */
export interface FleetCopy {
  /**
   * Brings the copy to the fleet's version, resolving whether it moved; rejects with
   * FleetLostError when the fleet is gone.
   */
  refresh(): Promise<boolean>;
  /**
   * Runs `change` (a control call's, or a request's that spends a forced answer or a chaos draw)
   * on a current copy and saves what it left; resolves with what `change` returned once the fleet
   * holds it. The changes of one replica run one at a time, so each saves only its own.
   */
  change<T>(change: () => T | Promise<T>): Promise<T>;
  /** The fleet's version the copy was read at (`'0'` for none read yet). */
  version(): string;
  /** Forgets the version read: the next refresh loads the fleet's state whatever it is. */
  forget(): void;
}

/** The plain data of a replica's state, sharing nothing with it. */
function stateOf({ clock, keys, policies }: ReplicaState): FleetControlState {
  return {
    clock: clock.save(),
    keys: keys.map((key) => ({ ...key })),
    policies: Object.fromEntries(policies.map((policy) => [policy.name, policy.save()])),
  };
}

/** The copy of `replica`'s state for the fleet held by `store`. */
export function fleetCopy(store: FleetStateStore, replica: ReplicaState): FleetCopy {
  let version = '0';
  const refresh = async (): Promise<boolean> => {
    const found = await store.check(version);
    if (!found.changed) return false;
    if (found.state !== undefined) {
      const { clock, keys, policies } = found.state;
      // Each policy's state is read whole before anything changes (PolicyState.load).
      const loads = replica.policies.map((policy) => policy.load(policies[policy.name]));
      replica.clock.load(clock);
      replica.keys.splice(0, replica.keys.length, ...keys.map((key) => ({ ...key })));
      for (const apply of loads) apply();
    }
    version = found.version;
    return true;
  };
  /** One change on a current copy, saved on the version it was made on, or made again. */
  const changeNow = async <T>(change: () => T | Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      await refresh();
      const before = stringifyJson(stateOf(replica));
      const result = await change();
      const after = stateOf(replica);
      if (stringifyJson(after) === before) return result;
      const saved = await store.save(version, after);
      if (saved !== undefined) {
        version = saved;
        return result;
      }
      if (attempt === changeAttempts)
        throw new Error(
          `petstore-fake: ${changeAttempts} other changes of the fleet's control state were saved while this one was made; send it again`,
        );
    }
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    refresh,
    version: () => version,
    forget: () => {
      version = '';
    },
    change(change) {
      const run = queue.then(() => changeNow(change));
      queue = run.catch(() => {});
      return run;
    },
  };
}
