/**
 * The control surface over HTTP, under `<origin><controlPrefix>/` (default `/__control/`),
 * outside `/v1` so it can never collide with the interface. Every route is a thin wrapper over
 * control.ts; bad input gets a 400 Error body that says what to send instead.
 */
import { http } from 'msw';
import { parseJson } from '../contract/lossless-json.ts';
import type { OperationId } from '../contract/types.ts';
import type { ResolvedConfig } from '../core/config.ts';
import { jsonResponse } from '../core/json-response.ts';
import { constantTimeEqual } from '../policies/auth.ts';
import type { FakeControl, ResetSeed } from './control.ts';

const operationIds: readonly OperationId[] = ['listPets', 'createPet', 'getPet'];

class ControlError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new ControlError(400, 'body must be JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ControlError(400, 'body must be a JSON object');
  return value as Record<string, unknown>;
}

function toEpochMs(value: unknown): number {
  const ms =
    typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ControlError(400, 'set must be an ISO date string or epoch milliseconds');
  return ms;
}

type ControlRoute = (control: FakeControl, request: Request, rest: string) => Promise<unknown>;

const routes: Record<string, ControlRoute> = {
  'GET state': async (control) => control.describe(),
  'POST reset': async (control, request) => {
    const { seed = 'default' } = await bodyOf(request);
    if (seed !== 'default' && seed !== 'empty' && !Array.isArray(seed)) {
      throw new ControlError(400, 'seed must be "default", "empty" or an array of pets');
    }
    await control.reset(seed as ResetSeed);
    return control.describe();
  },
  'GET clock': async (control) => clockView(control),
  'POST clock': async (control, request) => {
    const body = await bodyOf(request);
    // Check everything before changing anything, so a bad field leaves the clock as it was.
    const set = body.set === undefined ? undefined : toEpochMs(body.set);
    if (
      body.advance !== undefined &&
      (typeof body.advance !== 'number' || !Number.isFinite(body.advance))
    ) {
      throw new ControlError(400, 'advance must be a number of seconds');
    }
    if (body.freeze !== undefined && typeof body.freeze !== 'boolean') {
      throw new ControlError(400, 'freeze must be true or false');
    }
    // Freeze first, so `{"set": ..., "freeze": true}` stops at exactly the time set.
    if (body.freeze === true) control.freezeTime(true);
    if (body.real === true) control.setTime(Date.now());
    if (set !== undefined) control.setTime(set);
    if (typeof body.advance === 'number') control.advanceTime(body.advance);
    if (body.freeze === false) control.freezeTime(false);
    return clockView(control);
  },
  'GET keys': async (control) => control.keys(),
  'POST keys': async (control, request) => {
    const { id, key, plan } = await bodyOf(request);
    return control.addKey({
      id: String(id ?? ''),
      key: String(key ?? ''),
      plan: String(plan ?? ''),
    });
  },
  'PATCH keys': async (control, request, id) => {
    const { plan, limits } = await bodyOf(request);
    if (plan !== undefined && typeof plan !== 'string')
      throw new ControlError(400, 'plan must be a string');
    return control.updateKey(decodeURIComponent(id), {
      ...(plan === undefined ? {} : { plan }),
      ...(limits === undefined ? {} : { limits: limits as never }),
    });
  },
  'GET snapshot': async (control) => control.snapshot(),
  'POST restore': async (control, request) => {
    await control.restore((await bodyOf(request)) as never);
    return control.describe();
  },
  'GET force': async (control) => control.describe().forced,
  'POST force': async (control, request) => {
    const { operationId, status, count = 1, retryAfterSeconds } = await bodyOf(request);
    if (!operationIds.includes(operationId as OperationId)) {
      throw new ControlError(400, `operationId must be one of: ${operationIds.join(', ')}`);
    }
    return control.force(
      operationId as OperationId,
      Number(status),
      Number(count),
      retryAfterSeconds === undefined ? undefined : Number(retryAfterSeconds),
    );
  },
  'DELETE force': async (control) => {
    control.clearForced();
    return control.describe().forced;
  },
};

function clockView(control: FakeControl) {
  const now = control.now();
  return { now: new Date(now).toISOString(), epochMs: now, frozen: control.describe().clockFrozen };
}

function controlError(status: number, message: string): Response {
  return jsonResponse(status, {
    code: status === 404 ? 'control_not_found' : 'invalid_control_request',
    message,
    status,
  });
}

/** Why a control request may not proceed, or `undefined` when it may. */
export function checkControlAccess(
  access: ResolvedConfig['controlAccess'],
  request: Request,
): string | undefined {
  if (access === 'open') return undefined;
  if (access === 'disabled')
    return 'the control surface is disabled (the fake listens beyond loopback without a control token)';
  const sent = request.headers.get('x-control-token');
  return sent !== null && constantTimeEqual(sent, access.token)
    ? undefined
    : 'send the control token as X-Control-Token';
}

/** Answers one control request, given the path after the prefix. */
export async function answerControl(
  control: FakeControl,
  request: Request,
  path: string,
): Promise<Response> {
  const [resource = '', ...rest] = path.split('/').filter(Boolean);
  const route = routes[`${request.method} ${resource}`];
  if (route === undefined) {
    const known = Object.keys(routes).map((name) => name.replace(' ', ' /'));
    return controlError(
      404,
      `unknown control route ${request.method} /${resource}; known: ${known.join(', ')}`,
    );
  }
  try {
    return jsonResponse(200, await route(control, request, rest.join('/')));
  } catch (error) {
    if (error instanceof ControlError) return controlError(error.status, error.message);
    if (error instanceof RangeError || error instanceof TypeError)
      return controlError(400, error.message);
    if (error instanceof Error && error.message.startsWith('petstore-fake:'))
      return controlError(400, error.message);
    throw error;
  }
}

/** msw handlers of the control surface on one origin. */
export function createControlHandlers(
  control: FakeControl,
  origin: string,
  config: ResolvedConfig,
) {
  const prefix = config.controlPrefix;
  return [
    http.all(`${origin}${prefix}/*`, async ({ request }) => {
      const denied = checkControlAccess(config.controlAccess, request);
      if (denied !== undefined)
        return jsonResponse(403, { code: 'control_forbidden', message: denied, status: 403 });
      const path = new URL(request.url).pathname.slice(prefix.length);
      return answerControl(control, request, path);
    }),
  ];
}
