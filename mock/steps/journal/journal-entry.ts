/**
 * One request as the journal shows it (`GET /__control/requests`, `fake.control.requests()`):
 * when it came on both clocks, what it asked, who sent it, what it was answered, how the answer
 * was made and the body it carried, cut and redacted. Never a key: its public id.
 */
import type { OperationId } from '../../base/contract/types.ts';

/** The headers of an answer the journal keeps: what the client was told about its window. */
export const journalHeaders = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
] as const;

/** One request in the journal. */
export interface JournalEntry {
  /** Its number in order of arrival since the journal was last cleared (a later request has a larger one). */
  readonly seq: number;
  /** When it arrived on the fake's clock, ISO and epoch ms (what `since` and `until` compare). */
  readonly at: string;
  readonly atMs: number;
  /** When it arrived in real time. */
  readonly realAt: string;
  readonly method: string;
  /** The path, and the query with its `?` (empty without one), both redacted. */
  readonly path: string;
  readonly query: string;
  /** The operation it was routed to; `null` when it reached none (an unknown path, a preflight). */
  readonly operationId: OperationId | null;
  /** The key's public id: `-` when none was sent, `unknown` for one that matched no key. */
  readonly keyId: string;
  /** `X-Client-Id`, else `User-Agent`, else `-` (as the client report and the log name it). */
  readonly clientId: string;
  /** The connection it came on: an HTTP socket, a browser tab (`tab:...`), or `in-process`. */
  readonly connection: string;
  readonly status: number;
  /** The Error body's code, when the answer was an Error. */
  readonly errorCode: string | null;
  /** The `X-RateLimit-*` and `Retry-After` headers it was given, as sent (absent ones left out). */
  readonly headers: Partial<Record<(typeof journalHeaders)[number], string>>;
  /** Forced through the control surface (`force`). */
  readonly forced: boolean;
  /** Drawn by seeded chaos. */
  readonly chaos: boolean;
  /** A whole answer stubbed at runtime (`force` with an `answer`). */
  readonly stubbed: boolean;
  /**
   * The interface rules a stubbed answer breaks, in the interface's words (a stub may break them:
   * that is its use); empty for every other answer.
   */
  readonly breaks: readonly string[];
  /** Its connection was dropped instead of answered (the status is what the log shows). */
  readonly dropped: boolean;
  /**
   * Answered before any pipeline step ran: a request target too long or unparsable, or a path
   * outside the base path and the control surface.
   */
  readonly refusedEarly: boolean;
  /** Real time from its arrival at the fake to its answer, in ms. */
  readonly durationMs: number;
  /** Its body as UTF-8 text, redacted and cut to the journal's body length; `null` for none. */
  readonly body: string | null;
  /** The body's whole size in bytes (`null` when it passed the fake's body cap and was not read). */
  readonly bodyBytes: number | null;
  /** Whether `body` is only the body's start. */
  readonly bodyTruncated: boolean;
}

/** What `GET /__control/requests` and `fake.control.requests()` answer. */
export interface JournalAnswer {
  /** How many entries match the filter (before `limit`). */
  readonly total: number;
  /** The matching entries, newest arrival first, at most `limit`. */
  readonly requests: readonly JournalEntry[];
  /**
   * Entries the journal let go to stay within its bounds since it was last cleared (oldest
   * first): a count, so a reader knows the journal is not the whole story.
   */
  readonly dropped: number;
  /** The journal's bounds. */
  readonly bounds: {
    readonly maxEntries: number;
    /** Characters of every entry's strings, plus 640 an entry (its JSON's field names and numbers). */
    readonly maxBytes: number;
    /** Most characters of a body kept. */
    readonly bodyChars: number;
  };
}
