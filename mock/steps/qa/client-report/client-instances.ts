/**
 * Which copy of an app (an instance) sent a request, from what the doors know: the connection it
 * came on (an HTTP socket, a browser tab; `in-process` for `fake.fetch` and msw in Node). The
 * rules (README, "Two copies under one id"):
 *
 * - A tab (a connection id starting `tab:`, which the worker door gives) is one copy of the app:
 *   its requests are one instance, apart from every other tab's.
 * - Sockets do not tell copies apart: one Node process spreads its requests over several sockets
 *   (a fetch whose last answer's body was not read, or that sends as soon as the last answer
 *   ended, takes another), and copies in two processes have their own. A client's requests on
 *   every socket are one instance for its retry chains. Requests on one connection come from one
 *   instance: a request is early against a Retry-After given on its own connection (for the same
 *   request, or key-wide), and one that would have been early only against a Retry-After given on
 *   another socket is a *doubt*: neither early nor on time, and its wait is not judged.
 * - A client that declared one copy per id (a setting, or `X-Client-Copies: 1`) is one instance
 *   on every connection: a request early against any Retry-After it was given is early.
 */
import { tabConnectionPrefix } from '../../../base/messages/fake-request.ts';
import { LatestRing } from './latest-ring.ts';

/** One instance of a client: its open retry chains and the deadline the key gave it. */
export interface Instance<Chain, Sent> {
  readonly open: Chain[];
  /** The key-wide Retry-After (a rate-limit refusal or a ban) this instance was given. */
  keyDeadline: Deadline | undefined;
  /** Its latest non-idempotent requests, to see a create resent while the first was unanswered. */
  readonly sent: LatestRing<Sent>;
}

/** A Retry-After deadline on both clocks, with the answer that gave it. */
export interface Deadline {
  readonly fake: number;
  readonly real: number;
  /** When its answer left, in the report's sequence of arrivals and answers. */
  readonly answeredSeq: number;
  /** The connection the answer went out on. */
  readonly connection: string;
}

/** What was told on one connection: the latest Retry-After per request, and key-wide. */
interface ConnectionTold {
  readonly byRequest: Map<string, Deadline>;
  readonly keyDeadline: Deadline | undefined;
}

/** One connection's entry in the least-recently-used list of what was told. */
interface ToldEntry extends ConnectionTold {
  keyDeadline: Deadline | undefined;
}

/** Connections counted per client (ids kept to count each once). */
const connectionsKept = 256;
/** Connections whose Retry-Afters are remembered; the least recently used goes first. */
const toldKept = 32;
/** Requests whose Retry-After one connection remembers. */
const toldPerConnection = 8;
/** Tabs told apart per client; later ones share the sockets' instance. */
const tabsKept = 64;

/** Whether a connection id names a browser tab: one copy of the app, never another's connection. */
function isTab(id: string): boolean {
  return id.startsWith(tabConnectionPrefix);
}

/** The instances of one client and what it declared. */
export interface ClientInstances<Chain, Sent> {
  /** The instance of a request on `connection` (after `note`). */
  instanceOf(connection: string): Instance<Chain, Sent>;
  /** Notes a request on `connection`, and whether it declared one copy per id. */
  note(connection: string, oneCopy: boolean): void;
  /** The client's instances. */
  all(): Instance<Chain, Sent>[];
  /** Whether a request on `connection` early against `deadline` is early (else it is a doubt). */
  decides(connection: string, deadline: Deadline): boolean;
  /**
   * What was told on a connection (a socket, a tab, in-process), which counts as its use;
   * `undefined` while no connection of the client was ever told anything.
   */
  told(connection: string): ConnectionTold | undefined;
  /** Remembers a Retry-After given on a connection for one request. */
  tell(connection: string, identity: string, deadline: Deadline): void;
  /** Remembers the key-wide Retry-After given on a connection (`undefined`: none now). */
  tellKey(connection: string, deadline: Deadline | undefined): void;
  /** Connections seen (counted up to 256). */
  connections(): number;
  /** Whether every connection is one instance (declared). */
  oneCopy(): boolean;
}

/**
 * What each connection was told, for the 32 connections used last (a use is a request answered
 * on it). Until a first Retry-After is told, nothing is kept and a request costs no look-up: an
 * entry holding nothing is as good as none, so which connections were used before then changes
 * nothing (what the first tell keeps is what the used-last order would have kept).
 */
function createToldList() {
  let entries: Map<string, ToldEntry> | undefined;
  const use = (connection: string): ToldEntry => {
    entries ??= new Map();
    let found = entries.get(connection);
    if (found !== undefined) {
      // Deleted and set again: a Map keeps insertion order, so the first key is the least recent.
      entries.delete(connection);
    } else {
      found = { byRequest: new Map(), keyDeadline: undefined };
      if (entries.size >= toldKept) entries.delete(entries.keys().next().value as string);
    }
    entries.set(connection, found);
    return found;
  };
  return {
    told: (connection: string) => (entries === undefined ? undefined : use(connection)),
    tell(connection: string, identity: string, deadline: Deadline) {
      const { byRequest } = use(connection);
      byRequest.delete(identity);
      byRequest.set(identity, deadline);
      if (byRequest.size > toldPerConnection)
        byRequest.delete(byRequest.keys().next().value as string);
    },
    tellKey(connection: string, deadline: Deadline | undefined) {
      if (entries !== undefined || deadline !== undefined) use(connection).keyDeadline = deadline;
    },
  };
}

/** Creates the instance bookkeeping of one client; each instance keeps its latest `sentKept` creates. */
export function createClientInstances<Chain, Sent>(sentKept: number): ClientInstances<Chain, Sent> {
  const newInstance = (): Instance<Chain, Sent> => ({
    open: [],
    keyDeadline: undefined,
    sent: new LatestRing(sentKept),
  });
  const shared = newInstance();
  const tabs = new Map<string, Instance<Chain, Sent>>();
  const seen = new Set<string>();
  const { told, tell, tellKey } = createToldList();
  let declared = false;
  return {
    told,
    tell,
    tellKey,
    instanceOf(connection) {
      if (declared || !isTab(connection)) return shared;
      let tab = tabs.get(connection);
      if (tab === undefined) {
        if (tabs.size >= tabsKept) return shared;
        tab = newInstance();
        tabs.set(connection, tab);
      }
      return tab;
    },
    note(connection, oneCopy) {
      declared ||= oneCopy;
      if (seen.size < connectionsKept) seen.add(connection);
    },
    all: () => [shared, ...tabs.values()],
    decides: (connection, deadline) =>
      declared || isTab(connection) || deadline.connection === connection,
    connections: () => seen.size,
    oneCopy: () => declared,
  };
}
