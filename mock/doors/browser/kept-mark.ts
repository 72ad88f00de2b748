/**
 * Whether this browser profile has kept the shared fake's state before, remembered outside
 * IndexedDB so that a database found empty can be told apart from a new one (indexeddb-storage.ts).
 */

/** The mark of one fake name: set at the first write, read when the database is opened. */
export interface KeptMark {
  readonly set: () => void;
  readonly isSet: () => boolean;
}

/**
 * The mark, kept in localStorage (outside IndexedDB, so what takes one away need not take the
 * other), that this profile has written the fake's state under a name: a database found empty
 * while it is set was lost, not new.
 */
export function keptMark(name: string): KeptMark {
  const key = `petstore-fake:kept:${name}`;
  // localStorage may be missing (Node) or throw (storage denied): then there is no mark.
  const storage = (): Storage | undefined => {
    try {
      return typeof localStorage === 'undefined' ? undefined : localStorage;
    } catch {
      return undefined;
    }
  };
  return {
    set() {
      try {
        storage()?.setItem(key, new Date().toISOString());
      } catch {
        // A full or denied localStorage only costs the warning on a later loss.
      }
    },
    isSet: () => {
      try {
        return storage()?.getItem(key) != null;
      } catch {
        return false;
      }
    },
  };
}
