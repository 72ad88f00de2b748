/**
 * What the suite runs against. A target says where requests go, which key to send and what it
 * can be asked: the suite is written once and every door (in-process fake, fake over HTTP, any
 * base URL, Prism) is a target.
 */
import type { Route } from './client.ts';
import type { HarnessClock } from './clock.ts';
import type { RequestSpec } from './exchange.ts';

/** What a target implements beyond the document's shapes. */
export interface Capabilities {
  /**
   * It behaves as the interface says, not only in shape: it keeps pets, filters, tells keys
   * apart, answers unknown ids with 404 and bad requests with its own Error bodies.
   */
  readonly semantics: boolean;
  /** It enforces rate limits and its X-RateLimit-* headers count requests. */
  readonly rateLimits: boolean;
  /**
   * Set when the target is a mock made from the document itself (Prism's): a run then tests the
   * harness for false alarms, not a server, and its verdict says so. Names the mock.
   */
  readonly selfTest?: string;
  /** Why a capability is missing, for skip reasons. */
  readonly missingReasons?: { readonly semantics?: string; readonly rateLimits?: string };
}

/** A server the suite can run against. */
export interface Target {
  /** Human-readable name, e.g. `fake (in-process)` or the base URL. */
  readonly name: string;
  /** The base URL as the interface means it, ending in `/v1`. */
  readonly baseUrl: string;
  /** The API key; never printed. */
  readonly apiKey: string;
  /** A second key (`PETSTORE_API_KEY_2`), to check that keys' windows are independent; never printed. */
  readonly secondApiKey?: string;
  /** Whether the server is on this machine, where creating pets is harmless. */
  readonly loopback: boolean;
  readonly capabilities: Capabilities;
  /** Whether exchanges pass through `prism proxy` (and so carry its `sl-violations`). */
  readonly viaPrism: boolean;
  /** Maps a request to the URL it is sent to and the URL to reproduce it at. */
  route(spec: RequestSpec): Route;
  /** The fetch to send with; default the global one. A target may answer in-process instead. */
  readonly fetch?: typeof fetch;
  /**
   * Most requests its fetch may send for one call (a proxy that re-reads an answer): the client
   * keeps that many in the budget before each send. Default 1.
   */
  readonly maxWireRequestsPerSend?: number;
  /** A virtual clock, when the target has one (fakes in tests): waits then cost nothing. */
  readonly clock?: HarnessClock;
  /** Releases what the target started (servers, Prism). */
  close(): Promise<void>;
}

/** A capability set for a server that implements the whole interface. */
export const fullCapabilities: Capabilities = { semantics: true, rateLimits: true };

/** Joins a base URL and a request path (`/pets?limit=5`). */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** A route that sends every request straight to `baseUrl`. */
export function directRoute(baseUrl: string): (spec: RequestSpec) => Route {
  return (spec) => {
    const url = joinUrl(baseUrl, spec.path);
    return { sendUrl: url, reproUrl: url };
  };
}
