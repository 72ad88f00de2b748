/**
 * The interface coverage policy: which operations x statuses and which of the interface's named
 * rules the app's own tests exercised against the fake, per key and client id. It reads every
 * exchange of `/v1` (a 401 before authentication, a forced or chaos answer, the ban) with the
 * headers every answer carries already written.
 */
import type { ControllableClock } from '../../../base/clock/clock.ts';
import { ConfigError } from '../../../base/config-error.ts';
import type { Redaction } from '../../../base/messages/redaction.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import type { ControlRoutes } from '../../../pipeline/control-route.ts';
import type { Exchange } from '../../../pipeline/exchange.ts';
import type { Policy } from '../../../pipeline/pipeline.ts';
import { SessionStateError } from '../../../pipeline/session.ts';
import {
  type CoverageFormat,
  coverageFormatOf,
  coverageFormats,
  formatCoverage,
} from './coverage-formats.ts';
import type { CoverageRecord } from './coverage-record.ts';
import {
  type CoverageExchange,
  createCoverageRecorder,
  isErrorBody,
} from './interface-coverage.ts';

/** What the control surface can read of the coverage (part of `fake.control`). */
export interface CoverageControl {
  /** Interface coverage since the start or the last reset (docs/coverage.schema.json). */
  coverage(): CoverageRecord;
  /** Forgets the coverage so far (what a control reset does, unless `keepOnReset`). */
  clearCoverage(): void;
}

/** The coverage's options, which join createFake's through the step's registration. */
export interface CoverageOptions {
  readonly coverage?: {
    /**
     * Keep counting across control resets, so a suite that resets the fake after every test
     * still gets the whole suite's coverage (clear it with `clearCoverage()`). Default false.
     */
    readonly keepOnReset?: boolean;
  };
}

/** What the coverage policy is built from. */
interface CoverageParts {
  readonly clock: ControllableClock;
  /** The one redaction the record passes through where it is written. */
  readonly redaction: Redaction;
}

/** How the fake's own steps spell the headers the coverage reads, by lower-case name. */
const spelling: Readonly<Record<string, string>> = {
  'x-ratelimit-limit': 'X-RateLimit-Limit',
  'x-ratelimit-remaining': 'X-RateLimit-Remaining',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
  'retry-after': 'Retry-After',
  'www-authenticate': 'WWW-Authenticate',
  deprecation: 'Deprecation',
  sunset: 'Sunset',
  link: 'Link',
};

/**
 * A header of the answer by its lower-case name: the fake's own spelling first (one look-up),
 * else any case (answers write names as the step that set them, a stub included).
 */
function headerOf(headers: Exchange['headers'], name: string): string | undefined {
  const spelt = headers[spelling[name] ?? name];
  if (spelt !== undefined) return spelt;
  for (const key in headers) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

function hasErrorBody({ errorCode, status, answerBody }: Exchange): boolean {
  if (errorCode !== null) return true;
  if (status < 400 || answerBody === undefined) return false;
  try {
    return isErrorBody(JSON.parse(answerBody));
  } catch {
    return false;
  }
}

/**
 * A query's parameters (read, never changed): a client sends the same query again and again, so
 * the last one's are kept, made only when the text changed.
 */
function createQueryReader(): (query: string) => URLSearchParams {
  let lastText = '';
  let last = new URLSearchParams();
  return (query) => {
    if (query !== lastText) {
      last = new URLSearchParams(query);
      lastText = query;
    }
    return last;
  };
}

/** One exchange as the coverage reads it. */
function coverageExchange(
  exchange: Exchange,
  queryOf: (query: string) => URLSearchParams,
): CoverageExchange {
  const { keyId, headers } = exchange;
  return {
    operationId: exchange.operationId ?? undefined,
    method: exchange.method,
    // Redacted with the record, when an example is shown.
    path: exchange.path + exchange.query,
    query: queryOf(exchange.query),
    status: exchange.status,
    header: (name) => headerOf(headers, name),
    errorBody: hasErrorBody(exchange),
    at: exchange.atMs,
    // `-` and `unknown` name no key: their tries are a client's, not a key's.
    keyId: keyId === '-' || keyId === 'unknown' ? undefined : keyId,
    clientId: exchange.clientId,
    stubbed: exchange.injected === 'stubbed',
  };
}

/** The coverage policy: records every exchange of the interface's pipeline. */
export function coverageStep(
  { clock, redaction }: CoverageParts,
  options: CoverageOptions,
): Policy<CoverageControl> {
  const keepOnReset = options.coverage?.keepOnReset ?? false;
  if (typeof keepOnReset !== 'boolean')
    throw new ConfigError(
      'coverage.keepOnReset',
      `must be true or false, got ${String(keepOnReset)}`,
    );
  const recorder = createCoverageRecorder();
  const queryOf = createQueryReader();
  return {
    read: (exchange) => {
      if (exchange.kind === 'api') recorder.see(coverageExchange(exchange, queryOf));
    },
    reset: () => {
      if (!keepOnReset) recorder.clear();
    },
    clear: { route: 'DELETE coverage', run: () => recorder.clear() },
    control: {
      coverage: () => redaction.json(recorder.record('fake', clock.now())),
      clearCoverage: () => recorder.clear(),
    },
    routes: coverageRoutes,
    state: {
      name: 'coverage',
      save: () => recorder.save(),
      load(saved) {
        if (saved === undefined) return () => recorder.clear();
        const read = recorder.load(saved);
        if ('problem' in read) throw new SessionStateError(read.problem);
        return read.apply;
      },
    },
  };
}

const coverageRoutes: ControlRoutes<CoverageControl> = {
  'GET coverage': async (control, request) => {
    const format = new URL(request.url).searchParams.get('format') ?? 'json';
    if (!coverageFormats.includes(format as CoverageFormat))
      throw new ControlInputError(
        `format must be one of ${coverageFormats.join(', ')}, got ${JSON.stringify(format.slice(0, 40))}`,
      );
    const record = control.coverage();
    if (format === 'json') return { body: record };
    const type =
      format === 'markdown'
        ? 'text/markdown'
        : format === 'junit'
          ? 'application/xml'
          : 'application/json';
    return {
      body: record,
      answer: {
        status: 200,
        headers: { 'Content-Type': `${type}; charset=utf-8` },
        body: formatCoverage(record, format as CoverageFormat),
      },
    };
  },
  'DELETE coverage': async (control) => {
    control.clearCoverage();
    return { body: control.coverage().summary, action: 'coverage cleared' };
  },
};

/** `npm start --coverage-report <file>`, and the coverage line the fake prints when it stops. */
coverageStep.commandLine = {
  exitFiles: [
    {
      name: 'coverage-report',
      help: [
        'on exit, also write the interface coverage there (.md Markdown, .xml',
        'JUnit, .ctrf.json CTRF, else JSON; docs/interface-coverage.md)',
      ],
      finish(control) {
        const record = control.coverage();
        const { summary } = record;
        const missed = record.items
          .filter((item) => item.status !== 'exercised')
          .map((item) => item.id);
        return {
          summary: `petstore-fake: interface coverage: ${summary.exercised} of ${summary.items} items exercised by ${summary.exchanges} requests${missed.length === 0 ? '' : `; never: ${missed.join(', ')}`}`,
          text: (path) => formatCoverage(record, coverageFormatOf(path)),
          done: (path) => `coverage report written to ${path}`,
        };
      },
    },
  ],
} satisfies PolicyCommandLine<CoverageControl>;
