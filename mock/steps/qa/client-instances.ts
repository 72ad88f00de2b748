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
import { tabConnectionPrefix } from '../../base/messages/fake-request.ts';

/** One instance of a client: its open retry chains and the deadline the key gave it. */
export interface Instance<Chain> {
  readonly open: Chain[];
  /** The key-wide Retry-After (a rate-limit refusal or a ban) this instance was given. */
  keyDeadline: Deadline | undefined;
  /** Its latest non-idempotent requests, to see a create resent while the first was unanswered. */
  readonly sent: SentCreate[];
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

/** A non-idempotent request, by identity, with when it arrived and was answered. */
interface SentCreate {
  readonly identity: string;
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
}

/** What was told on one connection: the latest Retry-After per request, and key-wide. */
interface ConnectionTold {
  readonly byRequest: Map<string, Deadline>;
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
export interface ClientInstances<Chain> {
  /** The instance of a request on `connection` (after `note`). */
  instanceOf(connection: string): Instance<Chain>;
  /** Notes a request on `connection`, and whether it declared one copy per id. */
  note(connection: string, oneCopy: boolean): void;
  /** The client's instances. */
  all(): Instance<Chain>[];
  /** Whether a request on `connection` early against `deadline` is early (else it is a doubt). */
  decides(connection: string, deadline: Deadline): boolean;
  /** What was told on a connection (a socket, a tab, in-process). */
  told(connection: string): ConnectionTold;
  /** Remembers a Retry-After given on a connection for one request. */
  tell(connection: string, identity: string, deadline: Deadline): void;
  /** Connections seen (counted up to 256). */
  connections(): number;
  /** Whether every connection is one instance (declared). */
  oneCopy(): boolean;
}

/** Creates the instance bookkeeping of one client. */
export function createClientInstances<Chain>(): ClientInstances<Chain> {
  const newInstance = (): Instance<Chain> => ({ open: [], keyDeadline: undefined, sent: [] });
  const shared = newInstance();
  const tabs = new Map<string, Instance<Chain>>();
  const seen = new Set<string>();
  const toldOn = new Map<string, ConnectionTold>();
  let declared = false;
  const told = (connection: string): ConnectionTold => {
    let found = toldOn.get(connection);
    if (found !== undefined) {
      toldOn.delete(connection);
    } else {
      found = { byRequest: new Map(), keyDeadline: undefined };
      if (toldOn.size >= toldKept) toldOn.delete(toldOn.keys().next().value as string);
    }
    toldOn.set(connection, found);
    return found;
  };
  return {
    told,
    tell(connection, identity, deadline) {
      const { byRequest } = told(connection);
      byRequest.delete(identity);
      byRequest.set(identity, deadline);
      if (byRequest.size > toldPerConnection)
        byRequest.delete(byRequest.keys().next().value as string);
    },
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
