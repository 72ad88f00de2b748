/**
 * How a fake that shares its state with other processes (replicas) answers: every answer is
 * checked to be made on the shared version (confirmedStep), a request whose copy fell behind
 * runs again on a fresh one, one the shared state cannot serve is told so, and a control call
 * runs on a current copy and shares what it changed. assembly.ts puts these around its own
 * pipelines when it is given a SharedState.
 */
import type { Answer } from '../base/messages/answer.ts';
import type { ResolvedConfig } from '../pipeline/config/config.ts';
import type { Handler, Step } from '../pipeline/pipeline.ts';
import { type SharedState, SharedStateError } from '../pipeline/shared-state.ts';
import { isResetRequest } from '../steps/control/control-handlers.ts';

/** How many times a replica answers a request again when its copy fell behind mid-request. */
const staleAttempts = 4;

/**
 * How long a replica whose shared store cannot be reached tells clients to wait (Retry-After):
 * the client's command time-out, after which the next try meets a reconnected client or the
 * same answer.
 */
export const unavailableRetryMs = 2_000;

/**
 * A replica's step: an answer no call of its confirmed to be made on the fleet's version (a 401,
 * a refusal made before the quota was asked) is checked before it leaves, and when the copy had
 * moved, the request runs again on the new copy, before any recorder saw it. An answer the
 * quota or the store gave is confirmed by their scripts' own check, at no round trip more.
 */
export function confirmedStep(shared: SharedState): Step {
  return (_context, next) => {
    const ticket = shared.begin();
    return next().then(async (answer) => {
      if (shared.confirmedSince(ticket) || !(await shared.refresh())) return answer;
      throw new SharedStateError('stale', 'the fleet changed while this answer was made');
    });
  };
}

/**
 * A replica's answer: `run` made on the copy it holds and checked to be the fleet's version
 * (confirmedStep), again on a fresh copy when it was not, or `unavailable`'s answer when the
 * store cannot be reached (never an answer made from what this process alone holds).
 */
export async function answerOnSharedState(
  shared: SharedState,
  run: () => Answer | Promise<Answer>,
  unavailable: (problem: SharedStateError | undefined) => Answer | Promise<Answer>,
): Promise<Answer> {
  let problem: SharedStateError | undefined;
  for (let attempt = 1; attempt <= staleAttempts; attempt++) {
    try {
      // The copy was found behind: bring it current, then answer again.
      if (problem !== undefined) await shared.refresh();
      return await run();
    } catch (error) {
      if (!(error instanceof SharedStateError)) throw error;
      // A fleet found lost by a request is looked for once more: another replica's reset may
      // have started it again (the refresh then follows it, or finds it lost too).
      const again = error.kind === 'stale' || (error.kind === 'lost' && problem === undefined);
      problem = error;
      if (!again) break;
    }
  }
  return unavailable(problem);
}

/** What a replica's control calls need of its interface pipeline (assembly.ts's ApiPipeline). */
interface RecordingPipeline {
  catchUp(): Promise<void>;
  readonly clears: ReadonlyMap<string, () => void>;
}

/**
 * A replica's control handler over its own (`handler`): each call runs on a current copy and
 * shares what it changed; a reset starts a lost fleet again first; a reset or a recorder's clear
 * marks the fleet's exchanges, so every replica's recorders forget at that point.
 */
export function sharedControlHandler(
  shared: SharedState,
  api: RecordingPipeline,
  handler: Handler,
  config: Pick<ResolvedConfig, 'controlPrefix' | 'maxBodyBytes'>,
): Handler {
  return async (context) => {
    const path = context.url.pathname.slice(config.controlPrefix.length);
    const reset = await isResetRequest(context.request, path, config.maxBodyBytes);
    const run = async () => {
      await api.catchUp();
      return shared.change(async () => handler(context));
    };
    const answer = reset ? await shared.restart(run) : await run();
    // Every process's recorders forget at this point of the exchanges (as this one did).
    const [resource = ''] = path.split('/').filter(Boolean);
    const cleared = `${context.request.method} ${resource}`;
    if (answer.status === 200 && (reset || api.clears.has(cleared)))
      await shared.exchanges.mark(reset ? 'reset' : { cleared });
    return answer;
  };
}
