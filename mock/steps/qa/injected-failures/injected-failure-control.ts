/**
 * What QA does with injected failures: `fake.control`'s force, stubs and chaos (what
 * injected-failure-step.ts gives), and the control surface's routes over them
 * (`/__control/force`, `/__control/chaos`).
 */
import type { OperationId } from '../../../base/contract/types.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import { bodyOf, type ControlRoutes } from '../../../pipeline/control-route.ts';
import type { ForcedRule } from '../forced-answers/forced-responses.ts';
import type { StubInput, StubRule } from '../forced-answers/stubbed-answers.ts';
import type { ChaosSettings } from './chaos-settings.ts';

/** `force`: a status for the next answers of an operation, or a whole answer stubbed. */
export interface Force {
  /** Forces the next `count` responses of an operation to an error status. */
  (
    operationId: OperationId,
    status: number,
    count?: number,
    retryAfterSeconds?: number | null,
  ): ForcedRule;
  /** Stubs a whole answer for the matching requests (see docs/qa.md: stubs). */
  (stub: StubInput): StubRule;
}

/** `force` in another tab (the browser door's `fake.control`): each form returns a promise. */
export interface RemoteForce {
  (
    operationId: OperationId,
    status: number,
    count?: number,
    retryAfterSeconds?: number | null,
  ): Promise<ForcedRule>;
  (stub: StubInput): Promise<StubRule>;
}

/** What the control surface can do with injected failures (part of `fake.control`). */
export interface InjectedFailureControl {
  /**
   * Forces the next `count` responses of an operation to an error status (positional form), or
   * stubs a whole answer (`force({ operationId, keyId?, clientId?, query?, count?, answer })`).
   */
  force: Force;
  /** The forced rules still pending, by operation. */
  forced(): Partial<Record<OperationId, ForcedRule>>;
  /** The stubs kept, the one that answers first first, each with the rules it breaks. */
  stubs(): StubRule[];
  /** Drops every forced rule and every stub. */
  clearForced(): void;
  /** The chaos settings in force, or `null` for none. */
  chaos(): ChaosSettings | null;
  /** Replaces the chaos settings (checked whole: bad settings throw and change nothing); streams restart from the seed. */
  setChaos(settings: unknown): ChaosSettings;
  /** Turns chaos off. */
  clearChaos(): void;
}

/** The fields of `POST /__control/force`: the positional form's, and a stub's. */
const forceFields = [
  'operationId',
  'status',
  'count',
  'retryAfterSeconds',
  'keyId',
  'clientId',
  'query',
  'answer',
];

export const injectedFailureRoutes: ControlRoutes<InjectedFailureControl> = {
  'GET force': async (control) => ({ body: control.forced() }),
  'GET stubs': async (control) => ({ body: control.stubs() }),
  'POST force': async (control, request) => {
    const body = await bodyOf(request, forceFields);
    if (body.answer !== undefined) {
      const stub = control.force(body as unknown as StubInput);
      return {
        body: stub,
        action: `stub ${stub.operationId} ${stub.answer.drop === true ? 'drop' : String(stub.answer.status)} ${stub.remaining === null ? 'until cleared' : `x${stub.remaining}`}${stub.breaks.length > 0 ? ` (breaks ${stub.breaks.length} rule(s))` : ''}`,
      };
    }
    const stubOnly = ['keyId', 'clientId', 'query'].filter((field) => body[field] !== undefined);
    if (stubOnly.length > 0)
      throw new ControlInputError(
        `${stubOnly.join(', ')} match a stub: send them with answer ({"operationId", "answer": {"status", ...}}), or leave them out for the positional form`,
      );
    const { operationId, status, count = 1, retryAfterSeconds } = body;
    const rule = control.force(
      operationId as OperationId,
      status as number,
      count as number,
      retryAfterSeconds as number | null | undefined,
    );
    return {
      body: rule,
      action: `force ${String(operationId)} ${rule.status} x${rule.remaining}`,
    };
  },
  'DELETE force': async (control) => {
    control.clearForced();
    return { body: control.forced(), action: 'forced responses and stubs cleared' };
  },
  'GET chaos': async (control) => ({ body: control.chaos() }),
  'POST chaos': async (control, request) => {
    const settings = control.setChaos(await bodyOf(request, ['seed', 'rules']));
    return {
      body: settings,
      action: `chaos seed ${settings.seed}, ${settings.rules.length} rule(s)`,
    };
  },
  'DELETE chaos': async (control) => {
    control.clearChaos();
    return { body: null, action: 'chaos off' };
  },
};
