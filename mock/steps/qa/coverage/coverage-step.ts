/**
 * The interface coverage policy: which operations x statuses and which of the interface's named
 * rules the app's own tests exercised against the fake, per key and client id. Its step sits
 * right after routing, so it sees every answer of `/v1` (a 401 before authentication, a forced
 * or chaos answer, the ban) with the headers every answer carries already written.
 */
import type { ControllableClock } from '../../../base/clock/clock.ts';
import { ConfigError } from '../../../base/config-error.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import type { Answer } from '../../../base/messages/answer.ts';
import type { Redaction } from '../../../base/messages/redaction.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import type { ControlRoutes } from '../../../pipeline/control-route.ts';
import type { Context, Policy } from '../../../pipeline/pipeline.ts';
import { SessionStateError } from '../../../pipeline/session.ts';
import { keyIdSlot } from '../../policies/auth.ts';
import type { ClientIds } from '../../policies/client-ids.ts';
import { routeSlot } from '../../routes/route.ts';
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

/** What the coverage step is built from. */
interface CoverageParts {
  readonly clock: ControllableClock;
  readonly clientIds: ClientIds;
  /** The one redaction the record passes through where it is written. */
  readonly redaction: Redaction;
}

/** The query of a request without one (read, never changed). */
const noQuery = new URLSearchParams();

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
 * One answer as the coverage reads it. A class, so an exchange is one object: its header reader
 * is a method, where a closure (and the scope it closed over) per request read the headers.
 */
class AnswerExchange implements CoverageExchange {
  readonly operationId: OperationId | undefined;
  readonly method: string;
  /** Made into text only when an example is shown (most requests never are); redacted with the record. */
  readonly path: URL;
  readonly query: URLSearchParams;
  readonly status: number;
  readonly errorBody: boolean;
  readonly at: number;
  readonly keyId: string | undefined;
  readonly clientId: string;
  readonly stubbed: boolean;
  readonly #headers: Answer['headers'];
  /** Every header name lower-cased, made only when a name is not spelt as the fake's steps spell it. */
  #lower: Map<string, string> | undefined;

  constructor(context: Context, answer: Answer, clientId: string) {
    const { request, url } = context;
    const keyId = context.get(keyIdSlot);
    this.operationId = context.get(routeSlot)?.route.operationId;
    this.method = request.method;
    this.path = url;
    // URL builds its searchParams on first use: not for the many requests without a query.
    this.query = url.search === '' ? noQuery : url.searchParams;
    this.status = answer.status;
    this.errorBody = hasErrorBody(answer);
    this.at = context.now;
    // `unknown` names no key: its tries are a client's, not a key's.
    this.keyId = keyId === undefined || keyId === 'unknown' ? undefined : keyId;
    this.clientId = clientId;
    this.stubbed = answer.injected === 'stubbed';
    this.#headers = answer.headers;
  }

  /**
   * A header of the answer by name in any case: the fake's own spelling first (one lookup on
   * every request), else every name lower-cased (answers write names as the step that set them).
   */
  header(name: string): string | undefined {
    const spelt = spelling[name];
    const value = spelt === undefined ? undefined : this.#headers[spelt];
    if (value !== undefined) return value;
    this.#lower ??= new Map(
      Object.entries(this.#headers).map(([key, each]) => [key.toLowerCase(), each]),
    );
    return this.#lower.get(name);
  }
}

function hasErrorBody(answer: Answer): boolean {
  if (answer.errorCode !== undefined) return true;
  if (answer.status < 400 || answer.body === undefined) return false;
  try {
    return isErrorBody(JSON.parse(answer.body));
  } catch {
    return false;
  }
}

/** The step: passes the request on, then records its answer in the coverage. */
export function coverageStep(
  { clock, clientIds, redaction }: CoverageParts,
  options: CoverageOptions,
): Policy<CoverageControl> {
  const keepOnReset = options.coverage?.keepOnReset ?? false;
  if (typeof keepOnReset !== 'boolean')
    throw new ConfigError(
      'coverage.keepOnReset',
      `must be true or false, got ${String(keepOnReset)}`,
    );
  const recorder = createCoverageRecorder();
  const after = (context: Context, answer: Answer): Answer => {
    recorder.see(new AnswerExchange(context, answer, clientIds(context)));
    return answer;
  };
  return {
    step: { after },
    reset: () => {
      if (!keepOnReset) recorder.clear();
    },
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
