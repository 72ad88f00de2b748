/**
 * The request journal policy: one record per request the fake answers on any door (the HTTP
 * door, `fake.fetch`, the msw handlers, the browser's shared fake), what WireMock keeps at
 * `GET /__admin/requests`. It brings its option, its control functions and routes
 * (`GET`/`DELETE /__control/requests`), its flag and its session state, so the journal is kept
 * with the fake's session (in the browser, across reloads and takeovers) as coverage and the
 * Pact are.
 *
 * Its step is the outermost of the interface's pipeline and of the preflight's (so it sees every
 * answer with the headers every answer carries), and the core hands it the answers it gives
 * before any pipeline (`record`). Control requests are not journalled: the journal is what the
 * app did, and a QA page polling `GET /__control/requests` would fill it with itself (WireMock's
 * journal leaves its admin API out the same way).
 */
import type { ControllableClock } from '../../base/clock/clock.ts';
import { ConfigError } from '../../base/config-error.ts';
import type { OperationId } from '../../base/contract/types.ts';
import type { Answer } from '../../base/messages/answer.ts';
import { type BodyBytes, type FakeRequest, pathStart } from '../../base/messages/fake-request.ts';
import type { Redaction } from '../../base/messages/redaction.ts';
import { positiveInteger } from '../../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import type { ControlRoutes } from '../../pipeline/control-route.ts';
import type { Context, Policy, Step } from '../../pipeline/pipeline.ts';
import { keyIdSlot } from '../policies/auth.ts';
import { type ClientIds, printableClientId } from '../policies/client-ids.ts';
import { routeSlot } from '../routes/route.ts';
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

/** What the journal's step is built from. */
interface JournalParts {
  readonly clock: ControllableClock;
  readonly clientIds: ClientIds;
  /** The one redaction the journal is read through. */
  readonly redaction: Redaction;
  readonly config: { readonly maxBodyBytes: number };
}

/** The journal policy, with what the core records into it besides its step. */
export interface JournalPolicy extends Policy<JournalControl> {
  readonly step: Step;
  /**
   * Records an answer given before any pipeline ran (`refusedEarly`), with the body a door read
   * (or refused unread) before it refused the request.
   */
  record(
    request: FakeRequest,
    url: URL | undefined,
    answer: Answer,
    started: number,
    body?: BodyBytes,
  ): void;
}

/** Most characters of a body kept in an entry. */
const bodyChars = 2048;
/** How far past the cut a long body is redacted. */
const windowMargin = 4096;
/**
 * How far past the cut a secret cut by the window's end may reach: more than the longest form
 * the redaction finds of the longest key (256 characters, 1,280 percent-encoded twice).
 */
const cutGuard = 2048;

/**
 * Where the JSON string open at the end of a text starts (its quote), or -1 when none is open:
 * a text that is not JSON may show a stray quote as one, which only leaves more out.
 */
function openStringStart(text: string): number {
  let start = -1;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (start === -1) {
      if (unit === 34) start = at;
    } else if (unit === 92) at += 1;
    else if (unit === 34) start = -1;
  }
  return start;
}

/** The smallest `maxBytes`: one entry with the longest path (8 KiB) and body still fits. */
const minBytes = 64 * 1024;

/** Where the door knows no connection (fake.fetch, msw in Node): one process. */
const inProcess = 'in-process';

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A copy of a string that shares no memory with the one it was cut from. V8 keeps a `slice` of
 * a long string as a view of it: the first 2 KiB of a 1 MB body, kept so, would hold the whole
 * megabyte for as long as the entry stands (bounded-recorders.test.ts floods it so).
 */
function detached(text: string): string {
  return utf8.decode(encoder.encode(text));
}

/**
 * Decodes bodies of at most `maxBytes`, keeping the last one's bytes and text: the same body sent
 * again (a retry, a test's fixture, a load test) is the same string without a decode, and the
 * ring then keeps one string for both. Its memory is one body's bytes, made per journal.
 */
function createBodyDecoder(maxBytes: number): (bytes: Uint8Array) => string {
  const lastBytes = new Uint8Array(maxBytes);
  let lastLength = -1;
  let lastText = '';
  return (bytes) => {
    const length = bytes.byteLength;
    if (length === lastLength) {
      let at = 0;
      while (at < length && bytes[at] === lastBytes[at]) at += 1;
      if (at === length) return lastText;
    }
    lastText = utf8.decode(bytes);
    lastBytes.set(bytes);
    lastLength = length;
    return lastText;
  };
}

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
function headersOf(answer: Answer): JournalEntry['headers'] {
  const headers: Record<string, string> = {};
  for (const name in answer.headers) {
    const named = journalledName(name);
    if (named !== null) headers[named] = (answer.headers[name] as string).slice(0, 256);
  }
  return headers;
}

/** Whether a method's request may carry a body the journal keeps. */
function mayHaveBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/** The journal step, its control and its state. */
export function journalStep(
  { clock, clientIds, redaction, config }: JournalParts,
  options: JournalOptions,
): JournalPolicy {
  // 0 turns it off, as WireMock's --no-request-journal does: its step then costs nothing.
  const givenEntries = options.journal?.maxEntries ?? 1000;
  const maxEntries = givenEntries === 0 ? 0 : positiveInteger(givenEntries, 'journal.maxEntries');
  const maxBytes = positiveInteger(
    options.journal?.maxBytes ?? 2 * 1024 * 1024,
    'journal.maxBytes',
  );
  if (maxBytes < minBytes)
    throw new ConfigError('journal.maxBytes', `must be at least ${minBytes}, got ${maxBytes}`);
  const journal = createJournal({ maxEntries, maxBytes, bodyChars }, redaction);
  const decodeShort = createBodyDecoder(bodyChars * 4);

  /**
   * A body as kept: a short one as sent (redacted when it is read); a longer one redacted here,
   * then cut. A cut first could leave part of a secret, or a credential's value without the quote
   * that ends it, which no rule would then recognise; redacting a whole large body is slow
   * (bench/optimisations.md), so only a window past the cut is redacted, made safe at its end: a
   * JSON string still open there is left out from its opening quote, and a window whose redaction
   * shrank so far that its end (where a secret may have been cut) comes near the part kept is
   * redacted whole instead.
   */
  const keptBody = (
    bytes: BodyBytes,
  ): Pick<JournalRecord, 'body' | 'bodyBytes' | 'bodyTruncated'> => {
    if (bytes === 'too-large') return { body: null, bodyBytes: null, bodyTruncated: true };
    if (bytes.byteLength === 0) return { body: null, bodyBytes: 0, bodyTruncated: false };
    // A body of at most bodyChars characters has at most 4 bytes each: larger ones are cut, and
    // only the window's bytes are decoded (a 1 MB body is not made a string to keep 2 KiB of it).
    if (bytes.byteLength <= bodyChars * 4) {
      const text = decodeShort(bytes);
      if (text.length <= bodyChars)
        return { body: text, bodyBytes: bytes.byteLength, bodyTruncated: false };
    }
    const windowBytes = bytes.subarray(0, (bodyChars + windowMargin) * 4);
    let window = utf8.decode(windowBytes).slice(0, bodyChars + windowMargin);
    const open = openStringStart(window);
    if (open !== -1) window = window.slice(0, open + 1);
    let shown = redaction.text(window);
    if (open === -1 && shown.length < bodyChars + cutGuard)
      shown = redaction.text(utf8.decode(bytes));
    return {
      body: detached(shown.slice(0, bodyChars)),
      bodyBytes: bytes.byteLength,
      bodyTruncated: true,
    };
  };

  /** What a request's body leaves in its record. */
  type KeptBody = Pick<JournalRecord, 'body' | 'bodyBytes' | 'bodyTruncated'>;

  // One object literal of one shape per record, no spreads: a request costs one allocation here.
  const add = (
    seq: number,
    atMs: number,
    realMs: number,
    request: FakeRequest,
    path: string,
    query: string,
    operationId: OperationId | null,
    keyId: string,
    clientId: string,
    refusedEarly: boolean,
    answer: Answer,
    started: number,
    kept: KeptBody,
  ) => {
    const injected = answer.injected;
    journal.add({
      seq,
      atMs,
      realMs,
      method: request.method,
      path,
      query,
      operationId,
      keyId,
      clientId,
      connection: request.connection ?? inProcess,
      status: answer.status,
      errorCode: answer.errorCode ?? null,
      breaks:
        answer.breaks === undefined || answer.breaks.length === 0 ? null : answer.breaks.join('\n'),
      headers: headersOf(answer),
      // Prism's Prefer: code= forces an answer per request, as QA's force does per operation.
      forced: injected === 'forced' || injected === 'prefer',
      chaos: injected === 'chaos',
      stubbed: injected === 'stubbed',
      dropped: answer.drop === true,
      refusedEarly,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      body: kept.body,
      bodyBytes: kept.bodyBytes,
      bodyTruncated: kept.bodyTruncated,
    });
  };

  const noBody: KeptBody = { body: null, bodyBytes: 0, bodyTruncated: false };

  /**
   * The last URL's text and its path and query: a client sends the same URL again and again, and
   * url.href is read without a copy where pathname and search each slice a new string.
   */
  const lastUrl = { href: '', path: '', query: '' };
  const readUrl = (url: URL): void => {
    const href = url.href;
    if (href === lastUrl.href) return;
    lastUrl.path = url.pathname;
    lastUrl.query = url.search;
    lastUrl.href = href;
  };

  /** Records a routed request's answer once its body (if any) is kept; answers the answer. */
  const recordRouted = (
    context: Context,
    seq: number,
    realMs: number,
    started: number,
    answer: Answer,
    kept: KeptBody,
  ): Answer => {
    readUrl(context.url);
    add(
      seq,
      context.now,
      realMs,
      context.request,
      lastUrl.path,
      lastUrl.query,
      context.get(routeSlot)?.route.operationId ?? null,
      context.get(keyIdSlot) ?? '-',
      clientIds(context),
      false,
      answer,
      started,
      kept,
    );
    return answer;
  };

  // A promise reaction rather than an async step: no suspended frame per request, and one
  // closure (the reaction's) where a closure per record cost another.
  const passThrough: Step = (_context, next) => next();
  const journalling: Step = (context: Context, next) => {
    const started = performance.now();
    const realMs = Date.now();
    const seq = journal.arrive();
    return next().then((answer) => {
      const { request } = context;
      if (!mayHaveBody(request.method))
        return recordRouted(context, seq, realMs, started, answer, noBody);
      const bytes = request.body(config.maxBodyBytes);
      return bytes instanceof Promise
        ? bytes.then((read) => recordRouted(context, seq, realMs, started, answer, keptBody(read)))
        : recordRouted(context, seq, realMs, started, answer, keptBody(bytes));
    });
  };

  const step = maxEntries === 0 ? passThrough : journalling;

  const control: JournalControl = {
    requests: (filter) => journal.read(checkJournalFilter(filter)),
    clearRequests: () => journal.clear(),
  };

  return {
    step,
    record(request, url, answer, started, body) {
      if (maxEntries === 0) return;
      const start = pathStart(request.url);
      const target = detached(request.url.slice(start, start + 8192));
      const queryAt = target.indexOf('?');
      const [path, query] =
        url !== undefined
          ? [url.pathname, url.search]
          : queryAt === -1
            ? [target, '']
            : [target.slice(0, queryAt), target.slice(queryAt)];
      // The client id needs a context: an early refusal has none, so its header is read as is
      // and redacted with the rest of the entry when it is read.
      const clientId = detached(printableClientId(request));
      // The body a door read already (or refused unread); the core's own refusals read none.
      const kept = body === undefined ? noBody : keptBody(body);
      const seq = journal.arrive();
      add(
        seq,
        clock.now(),
        Date.now(),
        request,
        path,
        query,
        null,
        '-',
        clientId,
        true,
        answer,
        started,
        kept,
      );
    },
    reset: () => journal.clear(),
    control,
    routes: journalRoutes,
    state: {
      name: 'journal',
      changes: () => journal.changes(),
      save: () => journal.save(),
      load: (saved) => journal.load(saved),
    },
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
