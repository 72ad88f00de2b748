/**
 * Which copy of an app (an instance) sent a request, from the connection it came on (an HTTP
 * socket, a browser tab; `in-process` for `fake.fetch` and msw in Node), and how early it came
 * against the Retry-Afters its client was told (README, "Two copies under one id"):
 *
 * - A tab (a connection id starting `tab:`, which the worker door gives) is one copy of the app.
 * - Sockets do not tell copies apart: one Node process spreads its requests over several (a
 *   fetch whose last answer's body was not read, or that sends as soon as it ended, takes
 *   another), and copies in two processes have their own. So a client's sockets are one instance
 *   for its retry chains; a request is early against a Retry-After given on its own connection
 *   (for the same request, or key-wide), and one early only against one given on another socket
 *   is a *doubt*: neither early nor on time, and its wait is not judged.
 * - A client that declared one copy per id (a setting, or `X-Client-Copies: 1`) is one instance
 *   on every connection: a request early against any Retry-After it was given is early.
 */
import { tabConnectionPrefix } from '../../../base/messages/fake-request.ts';
import { type ClientEvent, complianceTolerance } from './client-report-shapes.ts';
import { LatestRing } from './latest-ring.ts';

/** Connections counted per client (ids kept to count each once). */
const connectionsKept = 256;
/** Connections whose Retry-Afters are remembered; the least recently used goes first. */
const toldKept = 32;
/** Requests whose Retry-After one connection remembers. */
const toldPerConnection = 8;
/** Tabs told apart per client; later ones share the sockets' instance. */
const tabsKept = 64;
/** Non-idempotent requests kept per instance to see one resent before its answer. */
const sentKept = 8;

/** A Retry-After deadline on both clocks, with the answer that gave it. */
export interface Deadline {
  readonly fake: number;
  readonly real: number;
  /** When its answer left, in the report's sequence of arrivals and answers. */
  readonly answeredSeq: number;
  /** The connection the answer went out on. */
  readonly connection: string;
}

/** One request retried within one instance: its latest failure, and the waits of its retries. */
export interface Chain {
  readonly identity: string;
  readonly failedAt: number;
  readonly failedReal: number;
  /** When the failure's answer left, in the report's sequence. */
  readonly failedSeq: number;
  readonly failedStatus: number;
  /** The failure's outcome was unknown to the client (a 5xx or a dropped connection). */
  readonly unknownOutcome: boolean;
  readonly retryAfterMs: number | null;
  /** Ms to `X-RateLimit-Reset` when no Retry-After came: ky 2 waits for it then. */
  readonly resetInMs: number | null;
  readonly deadline: Deadline | undefined;
  /** Its first own waits: the ones judged. */
  readonly ownWaits: number[];
}

/**
 * A non-idempotent request as its instance keeps it, to know the same create sent again: its
 * path and query, when it arrived and when its answer left (in the report's sequence).
 */
interface SentCreate {
  readonly method: string;
  readonly target: string;
  readonly bodyHash: ClientEvent['bodyHash'];
  readonly arrivalSeq: number;
  readonly answeredSeq: number;
}

/** One instance of a client: its open retry chains and the deadline the key gave it. */
export interface Instance {
  readonly open: Chain[];
  /** The key-wide Retry-After (a rate-limit refusal or a ban) this instance was given. */
  keyDeadline: Deadline | undefined;
  /** Its latest non-idempotent requests, to see a create resent while the first was unanswered. */
  readonly sent: LatestRing<SentCreate>;
}

/** What was told on one connection: the latest Retry-After per request, and key-wide. */
interface ConnectionTold {
  readonly byRequest: Map<string, Deadline>;
  keyDeadline: Deadline | undefined;
}

/**
 * How a request stands against the Retry-Afters it was given: the most it came early where that
 * counts, and the largest lead against one given on another socket (a copy's, perhaps).
 */
export interface Leads {
  early: number;
  otherSocket: Deadline | undefined;
  otherLead: number;
}

/**
 * What a Retry-After value asks for, in ms from the answer: delta-seconds, or an HTTP-date read
 * against real time (the fake writes its dates on real time; see base/quota/retry-after.ts).
 */
export function retryAfterDelay(
  value: string | undefined,
  answeredReal: number,
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - answeredReal);
}

/** How early a request is against a deadline given before it arrived: the smaller lead over both clocks (0: not early). */
export function earlyBy(deadline: Deadline | undefined, event: ClientEvent): number {
  if (deadline === undefined || deadline.answeredSeq > event.arrivalSeq) return 0;
  const lead = Math.min(deadline.fake - event.arrivedAt, deadline.real - event.arrivedReal);
  return lead > complianceTolerance.earlyToleranceMs ? lead : 0;
}

/** Whether a connection id names a browser tab: one copy of the app, never another's connection. */
function isTab(connection: string): boolean {
  return connection.startsWith(tabConnectionPrefix);
}

const newInstance = (): Instance => ({
  open: [],
  keyDeadline: undefined,
  sent: new LatestRing(sentKept),
});

/** The instances of one client, what it declared, and what each of its connections was told. */
export class ClientInstances {
  /** Whether it declared one copy per id: then every connection is one instance. */
  oneCopy = false;
  /** The connections seen, each once (up to 256). */
  readonly connections = new Set<string>();
  readonly #shared = newInstance();
  readonly #tabs = new Map<string, Instance>();
  /**
   * What each of the 32 connections used last was told (a use is a request answered on it).
   * Until a first Retry-After is told, nothing is kept and a request costs no look-up: an entry
   * holding nothing is as good as none, so which connections were used before then changes
   * nothing (what the first tell keeps is what the used-last order would have kept).
   */
  #told: Map<string, ConnectionTold> | undefined;

  /** The instance of a request on `connection`, noting it and whether it declared one copy per id. */
  instanceOf(connection: string, oneCopy: boolean): Instance {
    this.oneCopy ||= oneCopy;
    if (this.connections.size < connectionsKept) this.connections.add(connection);
    if (this.oneCopy || !isTab(connection)) return this.#shared;
    let tab = this.#tabs.get(connection);
    if (tab === undefined) {
      if (this.#tabs.size >= tabsKept) return this.#shared;
      tab = newInstance();
      this.#tabs.set(connection, tab);
    }
    return tab;
  }

  /** The client's instances. */
  all(): Instance[] {
    return [this.#shared, ...this.#tabs.values()];
  }

  /** Adds one deadline's lead to `leads` (none when the request is not early against it). */
  weigh(leads: Leads, event: ClientEvent, deadline: Deadline | undefined): void {
    const lead = earlyBy(deadline, event);
    if (lead === 0 || deadline === undefined) return;
    const { connection } = event;
    // Early where the connection decides (one copy, a tab, its own socket); else perhaps a copy's.
    if (this.oneCopy || isTab(connection) || deadline.connection === connection)
      leads.early = Math.max(leads.early, lead);
    else if (lead > leads.otherLead) {
      leads.otherSocket = deadline;
      leads.otherLead = lead;
    }
  }

  /** What was told on a connection, which counts as its use; `undefined` while none ever was. */
  told(connection: string): ConnectionTold | undefined {
    return this.#told === undefined ? undefined : this.#use(connection);
  }

  /** Remembers a Retry-After given on a connection for one request. */
  tell(connection: string, identity: string, deadline: Deadline): void {
    const { byRequest } = this.#use(connection);
    byRequest.delete(identity);
    byRequest.set(identity, deadline);
    if (byRequest.size > toldPerConnection)
      byRequest.delete(byRequest.keys().next().value as string);
  }

  /** Remembers the key-wide Retry-After given on a connection (`undefined`: none now). */
  tellKey(connection: string, deadline: Deadline | undefined): void {
    if (this.#told !== undefined || deadline !== undefined)
      this.#use(connection).keyDeadline = deadline;
  }

  #use(connection: string): ConnectionTold {
    this.#told ??= new Map();
    let found = this.#told.get(connection);
    if (found !== undefined) {
      // Deleted and set again: a Map keeps insertion order, so the first key is the least recent.
      this.#told.delete(connection);
    } else {
      found = { byRequest: new Map(), keyDeadline: undefined };
      if (this.#told.size >= toldKept) this.#told.delete(this.#told.keys().next().value as string);
    }
    this.#told.set(connection, found);
    return found;
  }
}
