import { createRedaction, type Redaction } from '../base/messages/redaction.ts';
import { type KeySecrets, keySecrets } from '../base/quota/plans.ts';
import type { PolicyCommandLine } from '../pipeline/config/policy-command-line.ts';
import type { ControlRoutes } from '../pipeline/control-route.ts';
import type { ExchangeReader } from '../pipeline/exchange.ts';
import type { FakeState } from '../pipeline/fake-state.ts';
import type { Policy, PolicyState, Step } from '../pipeline/pipeline.ts';
import {
  type AdmissionRequest,
  openAdmission,
  type SharedAdmission,
} from '../pipeline/shared-admission.ts';
import type { SharedState } from '../pipeline/shared-state.ts';
import { createExchanges, type Exchanges } from '../steps/exchange/exchange-step.ts';
import { journalStep } from '../steps/journal/journal-step.ts';
import { authenticateStep, identifyStep } from '../steps/policies/auth.ts';
import { type ClientIds, createClientIds } from '../steps/policies/client-ids.ts';
import { corsStep } from '../steps/policies/cors.ts';
import { errorCodesStep } from '../steps/policies/error-codes-step.ts';
import { hostStep } from '../steps/policies/host-step.ts';
import { internalErrorStep } from '../steps/policies/internal-error-step.ts';
import { quotaStep } from '../steps/policies/quota-step.ts';
import { rateLimitHeadersStep } from '../steps/policies/rate-limit-headers-step.ts';
import { createRefuse, type Refuse } from '../steps/policies/refusal.ts';
import { createRequestLog, type RequestLog } from '../steps/policies/request-log.ts';
import { clientReportStep } from '../steps/qa/client-report/client-report-step.ts';
import { coverageStep } from '../steps/qa/coverage/coverage-step.ts';
import { preferStep } from '../steps/qa/forced-answers/prefer-step.ts';
import { injectedFailureStep } from '../steps/qa/injected-failures/injected-failure-step.ts';
import { stubHeadersStep } from '../steps/qa/injected-failures/stub-headers-step.ts';
import { pactStep } from '../steps/qa/pact/pact-step.ts';
import {
  createRouteTable,
  type RouteTable,
  routeHeadersStep,
  routingStep,
} from '../steps/routes/route-table.ts';

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
