/**
 * A request as the behaviour core reads it: the least every door can supply cheaply. The HTTP
 * door builds one from Node's parser output without a Fetch `Request`; the fetch and msw doors
 * wrap the `Request` they are given.
 */

/** A request body read whole, or `too-large` once it passes the cap (the rest is not read). */
export type BodyBytes = Uint8Array | 'too-large';

/**
 * How a connection id names a browser tab (the browser door's): every request of a tab comes from
 * one copy of the app, which the client report tells apart from another tab's.
 */
export const tabConnectionPrefix = 'tab:';

/**
 * The header by which a door marks a create that may be a copy of one it sent already (the
 * browser door: a create its tab saw twice, as Chromium dispatches one again after its service
 * worker restarted); the client report counts it among the resent creates.
 */
export const possibleCopyHeader = 'x-petstore-possible-copy';

/** One request to the fake. */
export interface FakeRequest {
  /** Upper-case method, e.g. `GET`. */
  readonly method: string;
  /** The absolute URL on one of the fake's origins, e.g. `http://127.0.0.1:4010/v1/pets?limit=2`. */
  readonly url: string;
  /** A header's value (duplicates joined by `, `, as Fetch's `Headers.get`), or `null`. */
  header(name: string): string | null;
  /**
   * An opaque id of the connection the request came on (an HTTP socket, a browser tab); requests
   * on one connection come from one client instance. Absent where the door has none
   * (`fake.fetch`, msw in Node: one process).
   */
  readonly connection?: string;
  /** Every header as sent, in order (for wrappers that rebuild the request elsewhere). */
  headerList(): [string, string][];
  /**
   * The body, read at most `maxBytes` far; an empty array when there is none. A door that has
   * read it already (the HTTP door) hands it over at once, so a create awaits nothing for it.
   */
  body(maxBytes: number): BodyBytes | Promise<BodyBytes>;
}

/** Where the path starts in an absolute URL string (after `scheme://authority`). */
export function pathStart(url: string): number {
  const authority = url.indexOf('//');
  const slash = url.indexOf('/', authority === -1 ? 0 : authority + 2);
  return slash === -1 ? url.length : slash;
}
