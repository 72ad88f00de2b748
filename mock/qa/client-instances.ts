/**
 * Which copy of an app (an instance) sent a request, from what the doors know: the connection it
 * came on (an HTTP socket, a browser tab; `in-process` for `fake.fetch` and msw in Node) and the
 * order of requests and answers. The rules (README, "Two copies under one id"):
 *
 * - Requests on one connection come from one instance, and so do all of a client's requests
 *   once it declared one copy per id (a setting or `X-Client-Copies: 1`).
 * - A new connection's first request after the fake dropped another connection of the client
 *   continues that connection's instance: a client whose connection died reconnects.
 * - Otherwise a new connection is a new instance. Where that may be wrong (a request that would
 *   have come early against a Retry-After another connection of the same id was given), the
 *   request is a *doubt*, not an early request, until the other connection is used again: if it
 *   was idle when the request came, it was alive and unused, and a connection pool reuses an
 *   idle connection rather than open another, so the request came from another instance.
 */

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
  readonly connection: ConnectionState<unknown>;
}

/** A non-idempotent request, by identity, with when it arrived and was answered. */
export interface SentCreate {
  readonly identity: string;
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
}

/** What the report knows of one connection. */
export interface ConnectionState<Chain> {
  readonly id: string;
  instance: Instance<Chain>;
  /** Arrival sequence numbers of its requests not answered yet. */
  readonly inFlight: Set<number>;
  /** Its latest answered requests: [arrivalSeq, answeredSeq]. */
  readonly answered: [number, number][];
  lastArrivalSeq: number;
  /** The fake dropped it (chaos): its client can only come back on another connection. */
  dropped: boolean;
  /** Whether a new connection already took over its instance after the drop. */
  claimed: boolean;
}

/** A request that would have been early against another instance's Retry-After. */
interface Doubt {
  readonly arrivalSeq: number;
  readonly other: ConnectionState<unknown>;
  readonly otherIdle: boolean;
}

/** Connections kept per client; the least recently used goes first. */
const connectionsKept = 64;
/** Answered requests kept per connection (HTTP/1.1 answers one at a time, so few are needed). */
const answeredKept = 4;
/** Pending doubts kept per client; older ones stay counted, unresolved. */
const doubtsKept = 16;

/** The connections and instances of one client, and its doubts. */
export interface ClientInstances<Chain> {
  /** Notes a request's arrival on `connection`; returns its instance. */
  arrive(connection: string, arrivalSeq: number, oneCopy: boolean): Instance<Chain>;
  /** Notes its answer (and whether the fake dropped the connection instead). */
  answered(
    connection: string,
    arrivalSeq: number,
    answeredSeq: number,
    dropped: boolean,
  ): ConnectionState<Chain>;
  /** The client's instances (of the connections kept). */
  all(): Instance<Chain>[];
  /** The client's other instances. */
  others(instance: Instance<Chain>): Instance<Chain>[];
  /**
   * Records a request that would have been early against `deadline` of another instance: a
   * doubt, unless the deadline's connection was already used again while idle.
   */
  doubt(arrivalSeq: number, deadline: Deadline): void;
  /** Requests still in doubt (resolved ones are gone; forgotten ones stay counted). */
  doubts(): number;
  /** Connections seen (at most 64 kept). */
  connections(): number;
  /** Whether every connection is one instance (declared). */
  oneCopy(): boolean;
}

/** Whether `connection` had a request in flight when request `seq` arrived. */
function busyAt(connection: ConnectionState<unknown>, seq: number): boolean {
  for (const arrival of connection.inFlight) if (arrival < seq) return true;
  return connection.answered.some(([arrival, answer]) => arrival < seq && answer > seq);
}

/** Creates the instance bookkeeping of one client. */
export function createClientInstances<Chain>(): ClientInstances<Chain> {
  const connections = new Map<string, ConnectionState<Chain>>();
  let seen = 0;
  let sole: Instance<Chain> | undefined;
  let pending: Doubt[] = [];
  let forgotten = 0;
  const newInstance = (): Instance<Chain> => ({ open: [], keyDeadline: undefined, sent: [] });

  function connectionFor(id: string, arrivalSeq: number, oneCopy: boolean) {
    let connection = connections.get(id);
    if (connection !== undefined) {
      // Least recently used last out: a Map keeps insertion order.
      connections.delete(id);
      connections.set(id, connection);
      return connection;
    }
    // A reconnect after the fake dropped a connection carries on that connection's instance.
    let reconnected: ConnectionState<Chain> | undefined;
    for (const other of connections.values())
      if (other.dropped && !other.claimed && other.lastArrivalSeq < arrivalSeq) reconnected = other;
    if (reconnected !== undefined) reconnected.claimed = true;
    seen += 1;
    connection = {
      id,
      instance: (oneCopy ? sole : undefined) ?? reconnected?.instance ?? newInstance(),
      inFlight: new Set(),
      answered: [],
      lastArrivalSeq: arrivalSeq,
      dropped: false,
      claimed: false,
    };
    connections.set(id, connection);
    if (connections.size > connectionsKept) {
      const oldest = connections.keys().next().value as string;
      connections.delete(oldest);
    }
    return connection;
  }

  return {
    arrive(id, arrivalSeq, oneCopy) {
      const connection = connectionFor(id, arrivalSeq, oneCopy);
      if (oneCopy) {
        sole ??= connection.instance;
        connection.instance = sole;
      }
      // Used again: a request it left in doubt came from another instance if it was idle then.
      pending = pending.filter((d) => d.other !== connection || !d.otherIdle);
      connection.inFlight.add(arrivalSeq);
      connection.lastArrivalSeq = arrivalSeq;
      return connection.instance;
    },
    answered(id, arrivalSeq, answeredSeq, dropped) {
      const connection = connectionFor(id, arrivalSeq, false);
      connection.inFlight.delete(arrivalSeq);
      connection.answered.push([arrivalSeq, answeredSeq]);
      if (connection.answered.length > answeredKept) connection.answered.shift();
      if (dropped) connection.dropped = true;
      return connection;
    },
    all: () => [...new Set([...connections.values()].map((c) => c.instance))],
    others(instance) {
      const found = new Set<Instance<Chain>>();
      for (const connection of connections.values())
        if (connection.instance !== instance) found.add(connection.instance);
      return [...found];
    },
    doubt(arrivalSeq, deadline) {
      const other = deadline.connection;
      const otherIdle = !busyAt(other, arrivalSeq);
      // The other connection carried a request after this one while it was idle: settled.
      if (otherIdle && other.lastArrivalSeq > arrivalSeq) return;
      pending.push({ arrivalSeq, other, otherIdle });
      if (pending.length > doubtsKept) {
        pending.shift();
        forgotten += 1;
      }
    },
    doubts: () => pending.length + forgotten,
    connections: () => seen,
    oneCopy: () => sole !== undefined,
  };
}
