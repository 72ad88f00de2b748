/**
 * The fake's behaviour core: one function from a request to an answer, which every door calls.
 * The HTTP door and `fake.fetch` call it directly; the msw handlers (browser and Node doors) are
 * a thin adapter over it. It sends the request down one of three pipelines of the same step
 * type (the interface's under `/v1`, its CORS preflight, the control surface) or answers it
 * itself when it is none of them. Which steps run, in which order, is written here and nowhere
 * else.
 */

import { type Answer, errorAnswer } from '../base/messages/answer.ts';
import type { ErrorCode } from '../base/messages/errors.ts';
import { type BodyBytes, type FakeRequest, pathStart } from '../base/messages/fake-request.ts';
import { createRedaction, type Redaction } from '../base/messages/redaction.ts';
import { type KeySecrets, keySecrets } from '../base/quota/plans.ts';
import { retryAfterValue } from '../base/quota/retry-after.ts';
import { controlPageAnswer } from '../control-ui/control-page.ts';
import type { ResolvedConfig } from '../pipeline/config/config.ts';
import type { PolicyCommandLine } from '../pipeline/config/policy-command-line.ts';
import type { ControlRoutes } from '../pipeline/control-route.ts';
import type { ExchangeReader } from '../pipeline/exchange.ts';
import type { FakeState } from '../pipeline/fake-state.ts';
import {
  createContext,
  type Handler,
  type Policy,
  type PolicyState,
  runPipeline,
  type Step,
} from '../pipeline/pipeline.ts';
import {
  type AdmissionRequest,
  openAdmission,
  type SharedAdmission,
} from '../pipeline/shared-admission.ts';
import { type SharedState, SharedStateError } from '../pipeline/shared-state.ts';
import type { ServedControl } from '../steps/control/control.ts';
import { controlPipeline, isResetRequest } from '../steps/control/control-handlers.ts';
import { createExchanges, type Exchanges } from '../steps/exchange/exchange-step.ts';
import { journalStep } from '../steps/journal/journal-step.ts';
import { authenticateStep, identifyStep } from '../steps/policies/auth.ts';
import { type ClientIds, createClientIds } from '../steps/policies/client-ids.ts';
import { answerPreflight, corsStep } from '../steps/policies/cors.ts';
import { errorCodesStep } from '../steps/policies/error-codes-step.ts';
import { hostStep } from '../steps/policies/host-step.ts';
import { internalErrorStep } from '../steps/policies/internal-error-step.ts';
import { quotaStep } from '../steps/policies/quota-step.ts';
import {
  callerRateLimitHeaders,
  rateLimitHeadersStep,
  unreadRateLimitHeaders,
} from '../steps/policies/rate-limit-headers-step.ts';
import { createRefuse, type Refuse } from '../steps/policies/refusal.ts';
import { createRequestLog, type RequestLog } from '../steps/policies/request-log.ts';
import { clientReportStep } from '../steps/qa/client-report/client-report-step.ts';
import { coverageStep } from '../steps/qa/coverage/coverage-step.ts';
import { preferStep } from '../steps/qa/forced-answers/prefer-step.ts';
import { injectedFailureStep } from '../steps/qa/injected-failures/injected-failure-step.ts';
import { stubHeadersStep } from '../steps/qa/injected-failures/stub-headers-step.ts';
import { pactStep } from '../steps/qa/pact/pact-step.ts';
import {
  answerRoute,
  createRouteTable,
  type RouteTable,
  routeHeadersStep,
  routingStep,
} from '../steps/routes/route-table.ts';

/** Longest request target (path and query) answered; longer ones get 414 `uri_too_long`. */
export const maxUrlLength = 8192;

/** What the steps are built from: the fake's state and the parts several steps share. */
interface StepParts extends FakeState {
  /** The keys' secrets and the control token, as they stand. */
  readonly secrets: KeySecrets;
  /** The one redaction of every output the steps write (the Pact file, coverage, reports, the log). */
  readonly redaction: Redaction;
  readonly refuse: Refuse;
  readonly clientIds: ClientIds;
  readonly log: RequestLog;
  readonly routes: RouteTable;
  /** Where every request and its answer become one exchange, which the recorders read. */
  readonly exchanges: Exchanges;
  /** How many requests have arrived so far (the journal numbers its entries from it). */
  readonly arrivals: () => number;
  /**
   * Runs a request's spending of a stub, a forced answer or a chaos draw so that every process
   * sharing the state sees it (SharedState.change); `undefined` in a fake of its own.
   */
  readonly spend: (<T>(choose: () => T) => Promise<T>) | undefined;
  /**
   * Opens a request's quota decision so that its route's store call carries it
   * (pipeline/shared-admission.ts); `undefined` in a fake of its own, which decides at once.
   */
  readonly admission: ((request: AdmissionRequest) => SharedAdmission) | undefined;
}

/** Builds one entry of the pipeline from the shared parts and the policy's own options. */
type StepFactory = (parts: StepParts, options: never) => Step | Policy;

/**
 * The steps every `/v1` request runs through, in order: the first ones see the answer last
 * (they make it an exchange and write the headers every answer carries), the last ones decide
 * first. The recorders come right after the exchange's step: they have no step, and read every
 * exchange (the request log reads it too). A new policy is one entry here: a factory that takes
 * the parts it needs and, if it has settings only it reads, its own options type, which joins
 * createFake's options (`PolicyOptions`) from here.
 */
const apiSteps = [
  (parts) => parts.exchanges.step('api'),
  journalStep,
  coverageStep,
  pactStep,
  clientReportStep,
  (parts) => routingStep(parts.routes, parts.config.basePath),
  // After CORS and every header step on the way out: a stub's headers are the last word.
  () => stubHeadersStep,
  () => corsStep,
  () => routeHeadersStep,
  (parts) => rateLimitHeadersStep(parts),
  (parts) => errorCodesStep(parts.config.errorCodes),
  () => internalErrorStep('handler'),
  (parts) => identifyStep(parts.keys),
  (parts) => hostStep(parts.config.allowedHosts),
  (parts) =>
    authenticateStep({
      plans: parts.plans,
      quota: parts.quota,
      shared: parts.admission !== undefined,
    }),
  preferStep,
  injectedFailureStep,
  quotaStep,
] as const satisfies readonly StepFactory[];

type OptionsOf<Factory> = Factory extends (parts: StepParts, options: infer Options) => unknown
  ? unknown extends Options
    ? object
    : Options
  : object;
type Intersection<Union> = (Union extends unknown ? (each: Union) => void : never) extends (
  all: infer All,
) => void
  ? All
  : never;

type ControlOf<Factory> = Factory extends (...args: never[]) => infer Made
  ? Made extends { readonly control?: infer Control }
    ? Control extends object
      ? Control
      : object
    : object
  : object;

/**
 * What the registered policies bring to `npm start`'s command line (a policy's step declares it
 * as `step.commandLine`): the CLI's flags and exit files are these, beside its own.
 */
export const policyCommandLines: readonly PolicyCommandLine<PolicyControls>[] = apiSteps.flatMap(
  (factory) =>
    'commandLine' in factory ? [factory.commandLine as PolicyCommandLine<PolicyControls>] : [],
);

/**
 * The files the policies write when a fake stops (the Pact file, coverage, the client report),
 * in the order the policies stand: `npm start`'s exit-file flags and `startFake`'s `exitFiles`.
 */
export const policyExitFiles: NonNullable<PolicyCommandLine<PolicyControls>['exitFiles']> =
  policyCommandLines.flatMap((line) => line.exitFiles ?? []);

/** The options the registered policies declare for themselves (e.g. the ban's `ban`). */
export type PolicyOptions = Intersection<OptionsOf<(typeof apiSteps)[number]>>;

/** What the registered policies add to the control surface (forced answers, chaos, the client report). */
export type PolicyControls = Intersection<ControlOf<(typeof apiSteps)[number]>>;

/** The interface's pipeline of one fake: its steps, and what its policies give the control surface. */
export interface ApiPipeline {
  readonly steps: readonly Step[];
  readonly log: RequestLog;
  readonly exchanges: Exchanges;
  /** Every policy's control functions, in one object. */
  readonly control: PolicyControls;
  /** Puts every policy's own state back as the fake started (a control reset). */
  reset(): Promise<void>;
  /** Hands the recorders what other processes answered since they last read (a shared fake's). */
  catchUp(): Promise<void>;
  /** The control routes that clear a recorder's record (Policy.clear), by route. */
  readonly clears: ReadonlyMap<string, () => void>;
  /** What the policies add to the control surface's summary. */
  describe(): Record<string, unknown>;
  /** The policies' own states, for a session that leaves the fake and comes back (session.ts). */
  readonly states: readonly PolicyState[];
  /** Those that processes sharing the fake's state share (every one but the recorders'). */
  readonly sharedStates: readonly PolicyState[];
  /** The control routes the policies bring, over their parts of the control surface. */
  readonly routes: ControlRoutes<PolicyControls>;
}

/** Whether an entry of the list is a policy (a step with state, or a recorder), not a bare step. */
function isPolicy(entry: Step | Policy): entry is Policy {
  return typeof entry !== 'function' && !('after' in entry);
}

/**
 * Builds the interface's pipeline over one fake's state; a bad policy option throws a
 * ConfigError. With `shared`, the recorders read every process's exchanges from it (catchUp),
 * and this process's go there.
 */
export function createApiPipeline(
  state: FakeState,
  options: PolicyOptions,
  sharedState?: SharedState,
): ApiPipeline {
  const shared = sharedState?.exchanges;
  const { config, keys } = state;
  const token = typeof config.controlAccess === 'object' ? [config.controlAccess.token] : [];
  const secrets = keySecrets(keys, token);
  // Every secret the fake ever held: a key a reset removed may still stand in kept coverage.
  const redaction = createRedaction({ secrets, remember: true });
  const clientIds = createClientIds(secrets, redaction);
  // Filled once every policy is made: the request log, then each recorder, in the list's order.
  const readers: ExchangeReader[] = [];
  const exchanges = createExchanges({ clock: state.clock, clientIds, redaction, config }, readers);
  const parts: StepParts = {
    ...state,
    secrets,
    redaction,
    refuse: createRefuse(config.retryAfterFormat),
    clientIds,
    log: createRequestLog({ onExchange: config.onExchange, redaction }),
    routes: createRouteTable({ store: state.store, clock: state.clock, config }),
    exchanges,
    arrivals: shared === undefined ? exchanges.arrivals : shared.last,
    spend:
      sharedState === undefined ? undefined : (choose) => sharedState.change(async () => choose()),
    admission:
      sharedState === undefined
        ? undefined
        : (request) => openAdmission(sharedState.quota, sharedState.store, request),
  };
  const entries = apiSteps.map((factory) =>
    (factory as (parts: StepParts, options: PolicyOptions) => Step | Policy)(parts, options),
  );
  const policies = entries.filter(isPolicy);
  const steps = entries.flatMap((entry) => (isPolicy(entry) ? (entry.step ?? []) : [entry]));
  const recorders = policies.flatMap((policy) => policy.read ?? []);
  if (shared === undefined) readers.push(parts.log.read, ...recorders);
  else readers.push(parts.log.read, shared.send);
  const recording = policies.filter((policy) => policy.read !== undefined);
  const clears = new Map(
    policies
      .flatMap((policy) => (policy.clear === undefined ? [] : [policy.clear]))
      .map(({ route, run }) => [route, run] as const),
  );
  // What processes sharing the state share of the policies: every state but the recorders',
  // which each process builds from the exchanges of all.
  const sharedStates = policies.flatMap((policy) =>
    policy.read === undefined && policy.state !== undefined ? [policy.state] : [],
  );
  return {
    steps,
    log: parts.log,
    exchanges,
    control: Object.assign({}, ...policies.map((policy) => policy.control)) as PolicyControls,
    reset: async () => {
      await Promise.all(policies.map((policy) => policy.reset()));
    },
    catchUp: async () => {
      if (shared === undefined) return;
      await shared.catchUp(
        (exchange) => {
          for (const read of recorders) read(exchange);
        },
        (mark) => {
          if (mark === 'reset') for (const recorder of recording) void recorder.reset();
          else clears.get(mark.cleared)?.();
        },
      );
    },
    clears,
    describe: () => Object.assign({}, ...policies.map((policy) => policy.describe?.())),
    states: policies.flatMap((policy) => (policy.state === undefined ? [] : [policy.state])),
    sharedStates,
    // Each policy's routes take its own control, a part of PolicyControls.
    routes: Object.assign(
      {},
      ...policies.map((policy) => policy.routes),
    ) as ControlRoutes<PolicyControls>,
  };
}

/** The control surface a behaviour serves: its own functions and what each policy adds. */
type ControlSurface = ServedControl & PolicyControls;

/** The behaviour of one fake, for the doors. */
export interface Behaviour {
  /** Answers one request; never throws (a bug in the fake answers 500 `internal_error`). */
  answer(request: FakeRequest): Promise<Answer>;
  /** Whether an absolute URL is the fake's: one of its origins, under `/v1` or the control prefix. */
  owns(url: string): boolean;
  /**
   * The X-RateLimit-* headers for answers a door writes itself (parser refusals, an oversized
   * body): the caller's window, nothing spent, when `authorization` (the request's
   * Authorization header, if any) names a valid key; else the anonymous limits.
   */
  rateLimitHeaders(
    authorization: string | null,
  ): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Records an answer a door gave itself, before the core saw the request (the HTTP door's 413
   * for a body over the cap, its 400 for a missing Host): the request log and the journal show
   * it as refused early. `started` is `performance.now()` when the request arrived.
   */
  refusedByDoor(request: FakeRequest, answer: Answer, started: number, body: BodyBytes): void;
  /**
   * A new id for a connection a door opened (`http-1`, `http-2`...), counted per fake: the
   * client report tells a client's copies apart by their connections, so two doors of one fake
   * never hand out the same id.
   */
  connectionId(kind: string): string;
}

/** Whether `path` (with any query) is `prefix` itself or below it. */
function isUnder(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  // End of the path, '/', '?' or '#'.
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

/**
 * Whether an absolute URL is a fake's with this configuration: one of its origins, under `/v1` or
 * the control prefix. A door that answers for a fake elsewhere (another tab) asks it without one.
 */
export function ownsUrl(
  config: Pick<ResolvedConfig, 'origins' | 'basePath' | 'controlPrefix'>,
  url: string,
): boolean {
  for (const origin of config.origins) {
    if (!url.startsWith(origin)) continue;
    const path = url.slice(origin.length);
    if (isUnder(path, config.basePath) || path.startsWith(`${config.controlPrefix}/`)) return true;
  }
  return false;
}

/** How many times a replica answers a request again when its copy fell behind mid-request. */
const staleAttempts = 4;

/**
 * How long a replica whose shared store cannot be reached tells clients to wait (Retry-After):
 * the client's command time-out, after which the next try meets a reconnected client or the
 * same answer.
 */
const unavailableRetryMs = 2_000;

/**
 * A replica's step: an answer no call of its confirmed to be made on the fleet's version (a 401,
 * a refusal made before the quota was asked) is checked before it leaves, and when the copy had
 * moved, the request runs again on the new copy, before any recorder saw it. An answer the
 * quota or the store gave is confirmed by their scripts' own check, at no round trip more.
 */
function confirmedStep(shared: SharedState): Step {
  return (_context, next) => {
    const ticket = shared.begin();
    return next().then(async (answer) => {
      if (shared.confirmedSince(ticket) || !(await shared.refresh())) return answer;
      throw new SharedStateError('stale', 'the fleet changed while this answer was made');
    });
  };
}

/**
 * Creates the behaviour core over one fake's state, its interface pipeline and control surface;
 * with `shared`, the state it shares with other processes (replicas), whose version every answer
 * is checked to be made on.
 */
export function createBehaviour(
  state: FakeState,
  api: ApiPipeline,
  control: ControlSurface,
  shared?: SharedState,
): Behaviour {
  const { config, clock } = state;
  const { log, exchanges } = api;
  const rateLimitHeaders = (authorization: string | null) => {
    const headers = callerRateLimitHeaders(state, authorization, clock.now());
    // A replica that cannot read the usage says so in the values, as its 503 does.
    return headers instanceof Promise
      ? headers.catch(() => {
          const now = clock.now();
          return unreadRateLimitHeaders(state, authorization, now, now + unavailableRetryMs);
        })
      : headers;
  };
  // A replica's answers are checked right inside the exchange's step, before it records them.
  const confirmed = shared === undefined ? [] : [confirmedStep(shared)];
  const [exchangeStep, ...interfaceSteps] = api.steps;
  const apiSteps: readonly Step[] =
    exchangeStep === undefined ? [] : [exchangeStep, ...confirmed, ...interfaceSteps];
  // Preflights carry no credentials, so they are answered before authentication.
  const preflightSteps: readonly Step[] = [
    exchanges.step('preflight'),
    ...confirmed,
    rateLimitHeadersStep(state),
    identifyStep(state.keys),
    hostStep(config.allowedHosts),
  ];
  const controlSurface = controlPipeline(control, api.routes, config, controlPageAnswer);
  // A replica runs each control call on a current copy, and shares what it changed.
  const controlHandler: Handler =
    shared === undefined
      ? controlSurface.handler
      : async (context) => {
          const path = context.url.pathname.slice(config.controlPrefix.length);
          const reset = await isResetRequest(context.request, path, config.maxBodyBytes);
          const run = async () => {
            await api.catchUp();
            return shared.change(async () => controlSurface.handler(context));
          };
          const answer = reset ? await shared.restart(run) : await run();
          // Every process's recorders forget at this point of the exchanges (as this one did).
          const [resource = ''] = path.split('/').filter(Boolean);
          const cleared = `${context.request.method} ${resource}`;
          if (answer.status === 200 && (reset || api.clears.has(cleared)))
            await shared.exchanges.mark(reset ? 'reset' : { cleared });
          return answer;
        };
  const controlSteps: readonly Step[] = [log.controlStep, ...controlSurface.steps];

  /** Answers a request the fake gives before any pipeline, and records its exchange. */
  const refuseEarly = (
    request: FakeRequest,
    url: URL | undefined,
    code: ErrorCode,
    message: string | undefined,
    started: number,
    headers?: Record<string, string>,
  ): Answer | Promise<Answer> => {
    const answerWith = (with_: Record<string, string>) => {
      const answer = errorAnswer(code, message, with_);
      exchanges.record(request, url, answer, started);
      return answer;
    };
    if (headers !== undefined) return answerWith(headers);
    const caller = rateLimitHeaders(request.header('authorization'));
    return caller instanceof Promise ? caller.then(answerWith) : answerWith(caller);
  };

  /**
   * Answers through the pipeline the URL asks for, or refuses before any. Not `async`: an async
   * function returning the pipeline's promise wraps it in a promise of its own, which takes two
   * more microtask turns and a promise a request to adopt it.
   */
  function answer(request: FakeRequest): Promise<Answer> {
    if (shared !== undefined) return sharedAnswer(request, shared);
    try {
      const answered = pipelineAnswer(request);
      return answered instanceof Promise ? answered : Promise.resolve(answered);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * A replica's answer: made on the copy it holds and checked to be the fleet's version
   * (confirmedStep), again on a fresh copy when it was not, or 503 `store_unavailable` when the
   * store cannot be reached (never an answer made from what this process alone holds).
   */
  async function sharedAnswer(request: FakeRequest, shared: SharedState): Promise<Answer> {
    const started = performance.now();
    let problem: SharedStateError | undefined;
    for (let attempt = 1; attempt <= staleAttempts; attempt++) {
      try {
        // The copy was found behind: bring it current, then answer again.
        if (problem !== undefined) await shared.refresh();
        return await pipelineAnswer(request);
      } catch (error) {
        if (!(error instanceof SharedStateError)) throw error;
        // A fleet found lost by a request is looked for once more: another replica's reset may
        // have started it again (the refresh then follows it, or finds it lost too).
        const again = error.kind === 'stale' || (error.kind === 'lost' && problem === undefined);
        problem = error;
        if (!again) break;
      }
    }
    const now = clock.now();
    const retryAtMs = now + unavailableRetryMs;
    const headers = {
      ...unreadRateLimitHeaders(state, request.header('authorization'), now, retryAtMs),
      'Retry-After': retryAfterValue(config.retryAfterFormat, retryAtMs, now),
    };
    let url: URL | undefined;
    try {
      url = new URL(request.url);
    } catch {
      // Shown as its text, as the core's own early refusals of an unparsable target are.
    }
    return refuseEarly(request, url, 'store_unavailable', problem?.message, started, headers);
  }

  function pipelineAnswer(request: FakeRequest): Answer | Promise<Answer> {
    const started = performance.now();
    const start = pathStart(request.url);
    if (request.url.length - start > maxUrlLength) {
      const message = `The request target must be at most ${maxUrlLength} characters; got ${request.url.length - start}.`;
      return refuseEarly(request, undefined, 'uri_too_long', message, started);
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return refuseEarly(
        request,
        undefined,
        'bad_request',
        'The request URL could not be parsed.',
        started,
      );
    }
    const path = url.pathname;
    const context = createContext(request, url, clock.now());
    if (isUnder(path, config.basePath)) {
      const [steps, handler]: [readonly Step[], Handler] =
        request.method === 'OPTIONS' ? [preflightSteps, answerPreflight] : [apiSteps, answerRoute];
      return runPipeline(steps, handler, context);
    }
    if (path.startsWith(`${config.controlPrefix}/`))
      return runPipeline(controlSteps, controlHandler, context);
    const message = `No endpoint at ${path.slice(0, 200)}; the API lives under ${config.basePath}.`;
    return refuseEarly(request, url, 'route_not_found', message, started);
  }

  let connectionsOpened = 0;
  return {
    answer,
    owns: (url) => ownsUrl(config, url),
    rateLimitHeaders,
    connectionId: (kind) => {
      connectionsOpened += 1;
      return `${kind}-${connectionsOpened}`;
    },
    refusedByDoor: (request, answer, started, body) => {
      let url: URL | undefined;
      try {
        url = new URL(request.url);
      } catch {
        // Shown as its text, as the core's own early refusals of an unparsable target are.
      }
      exchanges.record(request, url, answer, started, body);
    },
  };
}
