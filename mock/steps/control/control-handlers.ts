/**
 * The control surface over HTTP, under `<origin><controlPrefix>/` (default `/__control/`),
 * outside `/v1` so it can never collide with the interface. Every route is a thin wrapper over
 * control.ts; bad input gets a 400 Error body that says what to send instead.
 */

import { clockRangeProblem } from '../../base/clock/clock.ts';
import { type Answer, errorAnswer, jsonAnswer } from '../../base/messages/answer.ts';
import type { FakeRequest } from '../../base/messages/fake-request.ts';
import { constantTimeEqual } from '../../base/quota/authenticate.ts';
import type { Limits } from '../../base/quota/plans.ts';
import type { ResolvedConfig } from '../../pipeline/config/config.ts';
import { callControl } from '../../pipeline/control-call.ts';
import { ControlInputError } from '../../pipeline/control-input-error.ts';
import { bodyOf, type ControlRoutes } from '../../pipeline/control-route.ts';
import type { StoreSnapshot } from '../../pipeline/persistence.ts';
import { createSlot, type Handler, type Step } from '../../pipeline/pipeline.ts';
import { StorageError } from '../../pipeline/storage-error.ts';
import { hostProblem, hostStep } from '../policies/host-step.ts';
import { internalErrorStep } from '../policies/internal-error-step.ts';
import { controlActionSlot } from '../policies/request-log.ts';
import type { ResetSeed, ServedControl } from './control.ts';

function toEpochMs(value: unknown): number {
  const ms =
    typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ControlInputError('set must be an ISO date string or epoch milliseconds');
  return ms;
}

async function clockView(control: ServedControl) {
  const now = await control.now();
  const { clockFrozen } = await control.describe();
  return { now: new Date(now).toISOString(), epochMs: now, frozen: clockFrozen };
}

/** The control surface's own routes; the policies bring theirs (control-route.ts). */
const ownRoutes: ControlRoutes<ServedControl> = {
  'GET state': async (control) => ({ body: await control.describe() }),
  'POST reset': async (control, request) => {
    const { seed = 'default' } = await bodyOf(request, ['seed']);
    await control.reset(seed as ResetSeed);
    const state = await control.describe();
    const from = Array.isArray(seed) ? 'the given pets' : String(seed);
    return { body: state, action: `reset to ${from} (${String(state.pets)} pets)` };
  },
  'GET clock': async (control) => ({ body: await clockView(control) }),
  'POST clock': async (control, request) => {
    const body = await bodyOf(request, ['set', 'advance', 'freeze', 'real']);
    // Check everything before changing anything, so a bad field leaves the clock as it was.
    if (body.real !== undefined && body.real !== true)
      throw new ControlInputError('real must be true (it returns the clock to real time)');
    if (body.real === true && (body.set !== undefined || body.advance !== undefined))
      throw new ControlInputError('real cannot be combined with set or advance');
    if (body.freeze !== undefined && typeof body.freeze !== 'boolean')
      throw new ControlInputError('freeze must be true or false');
    if (body.advance !== undefined && !Number.isFinite(body.advance))
      throw new ControlInputError('advance must be a number of seconds');
    const set = body.set === undefined ? undefined : toEpochMs(body.set);
    const target =
      (set ?? (await control.now())) + ((body.advance as number | undefined) ?? 0) * 1000;
    const problem =
      (set === undefined ? undefined : clockRangeProblem(set, 'set')) ??
      clockRangeProblem(target, body.advance === undefined ? 'set' : 'advance');
    if (problem !== undefined) throw new ControlInputError(problem);
    const changes: string[] = [];
    if (body.real === true) {
      await control.realTime();
      changes.push('real time');
    }
    // Freeze first, so `{"set": ..., "freeze": true}` stops at exactly the time set.
    if (body.freeze === true) await control.freezeTime(true);
    if (set !== undefined || body.advance !== undefined) await control.setTime(target);
    if (body.freeze === false) await control.freezeTime(false);
    if (set !== undefined) changes.push(`set to ${new Date(set).toISOString()}`);
    if (body.advance !== undefined) changes.push(`advanced ${String(body.advance)} s`);
    if (body.freeze !== undefined) changes.push(body.freeze ? 'frozen' : 'unfrozen');
    const view = await clockView(control);
    return {
      body: view,
      ...(changes.length === 0 ? {} : { action: `clock ${changes.join(', ')}: now ${view.now}` }),
    };
  },
  'GET keys': async (control) => ({ body: await control.keys() }),
  'POST keys': async (control, request) => {
    const { id, key, plan } = await bodyOf(request, ['id', 'key', 'plan']);
    const info = await control.addKey({ id, key, plan } as {
      id: string;
      key: string;
      plan: string;
    });
    return { body: info, action: `key ${info.id} added (plan ${info.plan})` };
  },
  'PATCH keys': async (control, request, id) => {
    const { plan, limits } = await bodyOf(request, ['plan', 'limits']);
    if (plan !== undefined && typeof plan !== 'string')
      throw new ControlInputError('plan must be a string');
    const info = await control.updateKey(id, {
      ...(plan === undefined ? {} : { plan }),
      ...(limits === undefined ? {} : { limits: limits as Limits | null }),
    });
    const limitsText = info.overridden
      ? `own limits ${info.limits.perMinute}/min, ${info.limits.perDay}/day`
      : 'plan limits';
    return { body: info, action: `key ${info.id}: plan ${info.plan}, ${limitsText}` };
  },
  'GET snapshot': async (control) => ({ body: await control.snapshot() }),
  // Any function of fake.control by name, for `connectFake` in another process: the reply is
  // always a 200 carrying the value or the error thrown, which the caller throws again.
  'POST call': async (control, request) => {
    const { method, args = [] } = await bodyOf(request, ['method', 'args']);
    if (typeof method !== 'string') throw new ControlInputError('method must be a string');
    if (!Array.isArray(args)) throw new ControlInputError('args must be an array');
    const reply = await callControl(control, method, args);
    return {
      body: reply,
      ...(reply.kind === 'value' ? { action: `called ${method.slice(0, 64)}` } : {}),
    };
  },
  'POST restore': async (control, request) => {
    const snapshot = await bodyOf(request, ['pets', 'nextId']);
    await control.restore(snapshot as unknown as StoreSnapshot);
    const state = await control.describe();
    return { body: state, action: `restored ${String(state.pets)} pets` };
  },
};

/**
 * Whether a control request resets the fake (`POST /reset`, or `reset` called through `POST
 * /call`): on a replica whose shared state was lost, the one request that starts it again.
 */
export async function isResetRequest(
  request: FakeRequest,
  path: string,
  maxBodyBytes: number,
): Promise<boolean> {
  if (request.method !== 'POST') return false;
  const route = path.replace(/^\/+|\/+$/g, '');
  if (route === 'reset') return true;
  if (route !== 'call') return false;
  const body = await request.body(maxBodyBytes);
  if (body === 'too-large') return false;
  try {
    const call = JSON.parse(new TextDecoder().decode(body)) as { method?: unknown } | null;
    return call?.method === 'reset';
  } catch {
    return false;
  }
}

/** Why a request comes from another site, or `undefined` when it does not. */
function crossSiteProblem(
  request: FakeRequest,
  allowedHosts: readonly string[],
): string | undefined {
  if (request.header('sec-fetch-site') === 'cross-site')
    return 'the control surface refuses cross-site requests (Sec-Fetch-Site: cross-site)';
  const origin = request.header('origin');
  if (origin === null) return undefined;
  let host: string | undefined;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' || url.protocol === 'https:') host = url.hostname;
  } catch {
    // `Origin: null` (sandboxed frames, file: pages) and garbage are refused below.
  }
  if (host !== undefined && hostProblem(host, allowedHosts) === undefined) return undefined;
  return `the control surface refuses requests from Origin ${origin.slice(0, 100)}`;
}

/** The live page's file a GET asks for, found by the token step (the files need no token). */
const pageSlot = createSlot<Answer>('control page file');

/**
 * The refusals in front of every control route, as steps: a fake on loopback is still reachable
 * from every page the user's browser opens. The Host must name the fake (no DNS rebinding), the
 * request must not come from another site (Origin, Sec-Fetch-Site), must carry the control token
 * when one is set, and, when it may change state, must be `application/json`: no "simple"
 * cross-site request (a form, a `no-cors` fetch) can have that type without a CORS preflight,
 * which this surface never grants. The live page's files hold no data, so a browser may load
 * them without the token, which its script then sends with every call.
 */
function controlRefusalSteps(config: ResolvedConfig, pageFile: ControlPage): Step[] {
  const crossSite: Step = (context, next) => {
    const problem = crossSiteProblem(context.request, config.allowedHosts);
    return problem === undefined ? next() : errorAnswer('cross_site_request', problem);
  };
  const token: Step = (context, next) => {
    const { request } = context;
    const page =
      request.method === 'GET'
        ? pageFile(context.url.pathname.slice(config.controlPrefix.length))
        : undefined;
    context.set(pageSlot, page);
    const access = config.controlAccess;
    if (access === 'disabled')
      return errorAnswer(
        'control_forbidden',
        'the control surface is disabled (the fake listens beyond loopback without a control token)',
      );
    if (access === 'open' || page !== undefined) return next();
    const sent = request.header('x-control-token');
    return sent !== null && constantTimeEqual(sent, access.token)
      ? next()
      : errorAnswer('control_forbidden', 'send the control token as X-Control-Token');
  };
  const jsonChanges: Step = (context, next) => {
    const { method } = context.request;
    const type = context.request.header('content-type')?.trim();
    if (method === 'GET' || method === 'HEAD' || /^application\/json\s*(;|$)/i.test(type ?? ''))
      return next();
    return errorAnswer(
      'invalid_control_request',
      'control requests that change state must be sent as Content-Type: application/json',
    );
  };
  return [hostStep(config.allowedHosts), crossSite, token, jsonChanges];
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The live page's file for a path below the control prefix (`/`, `/page.js`), or `undefined`. */
export type ControlPage = (path: string) => Answer | undefined;

/**
 * The control surface's sub-pipeline (see runPipeline): a bug in it is a logged 500, then the
 * refusals (Host, cross-site, token, content type), then the page or the route, whose change the
 * log records.
 */
export function controlPipeline<PolicyControl extends object>(
  control: ServedControl & PolicyControl,
  policyRoutes: ControlRoutes<PolicyControl>,
  config: ResolvedConfig,
  page: ControlPage,
): { readonly steps: readonly Step[]; readonly handler: Handler } {
  const routes: ControlRoutes<ServedControl & PolicyControl> = { ...ownRoutes, ...policyRoutes };
  const handler: Handler = async (context) => {
    const page = context.get(pageSlot);
    if (page !== undefined) return page;
    const { method } = context.request;
    // The path after the prefix, still percent-encoded.
    const path = context.url.pathname.slice(config.controlPrefix.length);
    const [resource = '', ...rest] = path.split('/').filter(Boolean);
    const name = `${method} ${resource}`;
    const route = Object.hasOwn(routes, name) ? routes[name] : undefined;
    const takesId = method === 'PATCH' && resource === 'keys';
    const id = rest.length === 1 ? decodeSegment(rest[0] as string) : undefined;
    if (route === undefined || (takesId ? id === undefined : rest.length > 0)) {
      const known = Object.keys(routes).map((each) => each.replace(' ', ' /'));
      return errorAnswer(
        'control_not_found',
        `unknown control route ${method} ${path.slice(0, 100)}; known: ${known.join(', ')}, PATCH /keys/{id}`,
      );
    }
    const request = { ...bind(context.request), maxBodyBytes: config.maxBodyBytes };
    try {
      const result = await route(control, request, id ?? '');
      context.set(controlActionSlot, result.action);
      return result.answer ?? jsonAnswer(200, result.body);
    } catch (error) {
      if (error instanceof ControlInputError) return errorAnswer(error.code, error.message);
      if (!(error instanceof StorageError)) throw error;
      const code = error.kind === 'full' ? 'insufficient_storage' : 'storage_failed';
      return errorAnswer(code, `nothing changed: ${error.message}`);
    }
  };
  return {
    steps: [internalErrorStep('control request'), ...controlRefusalSteps(config, page)],
    handler,
  };
}

/** The request's methods bound to it, so it can be spread into a ControlRequest. */
function bind(request: FakeRequest): FakeRequest {
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.header(name),
    headerList: () => request.headerList(),
    body: (maxBytes) => request.body(maxBytes),
  };
}
