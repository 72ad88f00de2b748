/**
 * The request journal policy, what WireMock keeps at `GET /__admin/requests`: one record per
 * exchange the fake answers on any door (steps/exchange/), with its option, its control
 * functions and routes (`GET`/`DELETE /__control/requests`) and its session state, so the
 * journal goes with the fake's session as coverage and the Pact do. Control requests are not
 * journalled: a QA page polling the journal would fill it with itself (WireMock leaves its admin
 * API out the same way).
 */
import { ConfigError } from '../../base/config-error.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import { positiveInteger } from '../../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import type { ControlRoutes } from '../../pipeline/control-route.ts';
import type { Exchange, ExchangeReader } from '../../pipeline/exchange.ts';
import type { Policy } from '../../pipeline/pipeline.ts';
import { bodyChars } from '../exchange/kept-body.ts';
import { createJournal, type JournalRecord } from './journal.ts';
import { type JournalAnswer, type JournalEntry, journalHeaders } from './journal-entry.ts';
import { checkJournalFilter, type JournalFilter } from './journal-filter.ts';

/** The journal's options, which join createFake's through the step's registration. */
export interface JournalOptions {
  readonly journal?: {
    /** Most requests kept; the oldest go first, counted in `dropped`. Default 1000; 0 turns it off. */
    readonly maxEntries?: number;
    /** Most bytes kept (characters of every entry's strings, plus 640 an entry). Default 2 MiB. */
    readonly maxBytes?: number;
  };
}

/** What the journal adds to the control surface (part of `fake.control`). */
interface JournalControl {
  /** The requests a filter picks, newest arrival first; a bad filter throws a ControlInputError. */
  requests(filter?: JournalFilter): JournalAnswer;
  /** Forgets every request so far (what a control reset does too). */
  clearRequests(): void;
}

/** What the journal is built from. */
interface JournalParts {
  /** The one redaction the journal is read through. */
  readonly redaction: Redaction;
  /** How many requests have arrived at the fake so far. */
  readonly arrivals: () => number;
}

/** The journal policy: a reader of every exchange, with its control and state. */
export interface JournalPolicy extends Policy<JournalControl> {
  readonly read: ExchangeReader;
}

/** The smallest `maxBytes`: one entry with the longest path (8 KiB) and body still fits. */
const minBytes = 64 * 1024;

/** The journalled names in lower case, beside the names themselves, and their lengths. */
const journalledLower = journalHeaders.map((name) => name.toLowerCase());
const journalledLengths = journalHeaders.map((name) => name.length);

/**
 * Which journalled header a name is, in any case (`null`: none). The fake's own steps spell them
 * as journalHeaders does, so an identical name is found by comparison alone; only a name of a
 * journalled name's length is lower-cased (a stub may spell them its own way).
 */
function journalledName(name: string): (typeof journalHeaders)[number] | null {
  for (const each of journalHeaders) if (name === each) return each;
  if (!journalledLengths.includes(name.length)) return null;
  const at = journalledLower.indexOf(name.toLowerCase());
  return at === -1 ? null : (journalHeaders[at] ?? null);
}

/** The journalled headers of an answer, as sent (a stub may spell them in any case). */
function headersOf(headers: Exchange['headers']): JournalEntry['headers'] {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    const named = journalledName(name);
    if (named !== null) kept[named] = (headers[name] as string).slice(0, 256);
  }
  return kept;
}

/** The journal's record of an exchange: one object literal of one shape, no spreads. */
function recordOf(seq: number, exchange: Exchange): JournalRecord {
  const { injected, body } = exchange;
  return {
    seq,
    atMs: exchange.atMs,
    realMs: exchange.realMs,
    method: exchange.method,
    path: exchange.path,
    query: exchange.query,
    operationId: exchange.operationId,
    keyId: exchange.keyId,
    clientId: exchange.clientId,
    connection: exchange.connection,
    status: exchange.status,
    errorCode: exchange.errorCode,
    breaks: exchange.breaks.length === 0 ? null : exchange.breaks.join('\n'),
    headers: headersOf(exchange.headers),
    // Prism's Prefer: code= forces an answer per request, as QA's force does per operation.
    forced: injected === 'forced' || injected === 'prefer',
    chaos: injected === 'chaos',
    stubbed: injected === 'stubbed',
    dropped: exchange.dropped,
    refusedEarly: exchange.kind === 'early',
    durationMs: Math.round(exchange.durationMs * 1000) / 1000,
    body: body.kept,
    bodyBytes: body.bytes,
    bodyTruncated: body.truncated,
  };
}

/** The journal, its control and its state. */
export function journalStep(
  { redaction, arrivals }: JournalParts,
  options: JournalOptions,
): JournalPolicy {
  // 0 turns it off, as WireMock's --no-request-journal does: its reader then costs nothing.
  const givenEntries = options.journal?.maxEntries ?? 1000;
  const maxEntries = givenEntries === 0 ? 0 : positiveInteger(givenEntries, 'journal.maxEntries');
  const maxBytes = positiveInteger(
    options.journal?.maxBytes ?? 2 * 1024 * 1024,
    'journal.maxBytes',
  );
  if (maxBytes < minBytes)
    throw new ConfigError('journal.maxBytes', `must be at least ${minBytes}, got ${maxBytes}`);
  const journal = createJournal({ maxEntries, maxBytes, bodyChars }, redaction, arrivals);

  const read: ExchangeReader = (exchange) => {
    const seq = journal.seqOf(exchange.arrival);
    // One that arrived before the journal was cleared went with what the clear forgot.
    if (maxEntries === 0 || seq <= 0) return;
    journal.add(recordOf(seq, exchange));
  };

  const control: JournalControl = {
    requests: (filter) => journal.read(checkJournalFilter(filter)),
    clearRequests: journal.clear,
  };
  // The journal's functions close over its state, so they are handed on as they are.
  return {
    read,
    reset: journal.clear,
    clear: { route: 'DELETE requests', run: journal.clear },
    control,
    routes: journalRoutes,
    state: { name: 'journal', changes: journal.changes, save: journal.save, load: journal.load },
  };
}

const journalRoutes: ControlRoutes<JournalControl> = {
  'GET requests': async (control, request) => {
    // Without a prototype: a parameter named `__proto__` is a field like any other (and refused).
    const filter: Record<string, string> = Object.create(null);
    for (const [name, value] of new URL(request.url).searchParams) {
      if (Object.hasOwn(filter, name))
        throw new ControlInputError(
          `requests filter: ${JSON.stringify(name.slice(0, 64))} is given twice; give each filter once`,
        );
      filter[name] = value;
    }
    return { body: control.requests(filter as JournalFilter) };
  },
  'DELETE requests': async (control) => {
    control.clearRequests();
    return { body: control.requests(), action: 'request journal cleared' };
  },
};

/** `npm start --journal-entries <n>`. */
journalStep.commandLine = {
  flags: [
    {
      name: 'journal-entries',
      value: '<n>',
      help: 'most requests the request journal keeps, oldest dropped first (default 1000; 0: off)',
      option: 'journal.maxEntries',
      reads: 'count',
    },
  ],
} satisfies PolicyCommandLine;
