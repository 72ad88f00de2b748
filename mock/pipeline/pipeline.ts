/**
 * The request pipeline: an ordered list of steps in front of a handler. Each step may answer
 * (a refusal it owns: the 401 with its challenge, the ban, the 429) or hand the request on with
 * `next()`, and may look at what came back; a step that only looks at what came back is an
 * after-step (`{ after }`), cheaper per request. The pipeline knows requests and answers only:
 * what a step learns for later steps (the caller, the rate-limit values) travels in a slot that
 * the step owning it declares, as hono's `c.set` / `c.get` do, so no step's data is written here.
 */
import type { Answer } from '../base/messages/answer.ts';
import type { FakeRequest } from '../base/messages/fake-request.ts';
import type { ExchangeReader } from './exchange.ts';

/** A typed place on the context for one thing a step learned. */
export interface Slot<T> {
  /** For the wiring error when a step reads a slot no earlier step filled. */
  readonly name: string;
  /** Where the context keeps its value: slots are few and made at load time. */
  readonly index: number;
  /** Phantom: only the type parameter matters. */
  readonly type?: T;
}

let slotsMade = 0;

/** Declares a slot; the step that fills it exports it. */
export function createSlot<T>(name: string): Slot<T> {
  return { name, index: slotsMade++ };
}

/** One request on its way through a pipeline, and what the steps learned about it so far. */
export interface Context {
  readonly request: FakeRequest;
  /** The request's URL, parsed; shared by requests with the same URL text: read it, never change it. */
  readonly url: URL;
  /** The fake's clock when the request arrived: every step sees the same time. */
  readonly now: number;
  /** What an earlier step left in `slot`, if anything. */
  get<T>(slot: Slot<T>): T | undefined;
  /** What an earlier step left in `slot`; reading one no step filled is a wiring bug. */
  need<T>(slot: Slot<T>): T;
  /** Leaves `value` in `slot` (`undefined` empties it). */
  set<T>(slot: Slot<T>, value: T | undefined): void;
}

/**
 * One request's context; a class, so a request costs one object and an array, not five closures.
 * Values sit at their slot's index: an array read where a Map look-up cost a hash (a request sets
 * or reads slots about 25 times, bench/optimisations.md).
 */
class RequestContext implements Context {
  readonly request: FakeRequest;
  readonly url: URL;
  readonly now: number;
  // Every slot is made at load time: one array of their number, where filling an empty one slot
  // by slot grew it (and copied it) several times a request.
  readonly #values: unknown[] = new Array(slotsMade);

  constructor(request: FakeRequest, url: URL, now: number) {
    this.request = request;
    this.url = url;
    this.now = now;
  }

  get<T>(slot: Slot<T>): T | undefined {
    return this.#values[slot.index] as T | undefined;
  }

  need<T>(slot: Slot<T>): T {
    const value = this.#values[slot.index];
    if (value === undefined)
      throw new Error(`petstore-fake: a step reads "${slot.name}" before the step that sets it`);
    return value as T;
  }

  set<T>(slot: Slot<T>, value: T | undefined): void {
    this.#values[slot.index] = value;
  }
}

/** Creates the context of one request. */
export function createContext(request: FakeRequest, url: URL, now: number): Context {
  return new RequestContext(request, url, now);
}

/** What answers a request every step let through. */
export type Handler = (context: Context) => Answer | Promise<Answer>;

/** A step that answers itself, or calls `next()` for the rest of the pipeline's answer. */
type AroundStep = (context: Context, next: () => Promise<Answer>) => Answer | Promise<Answer>;

/**
 * A step that only sees the answer of the rest of the pipeline: it records it, adds headers to
 * it, or replaces it. The pipeline applies a run of them in one promise reaction, where each as
 * an `async` step awaiting `next()` would cost a suspended frame and two promises on every
 * request (bench/optimisations.md). A rejection passes them by, as it passes an awaiting step by.
 */
interface AfterStep {
  readonly after: (context: Context, answer: Answer) => Answer | Promise<Answer>;
}

/** One entry of a pipeline. */
export type Step = AroundStep | AfterStep;

/** Applies `steps[from]` down to `steps[to]` (after-steps, innermost first) to an answer. */
function applyAfter(
  steps: readonly Step[],
  from: number,
  to: number,
  context: Context,
  answer: Answer,
): Answer | Promise<Answer> {
  let current = answer;
  for (let index = from; index >= to; index--) {
    const result = (steps[index] as AfterStep).after(context, current);
    if (result instanceof Promise)
      return result.then((next) => applyAfter(steps, index - 1, to, context, next));
    current = result;
  }
  return current;
}

/** Runs `steps` in order in front of `handler`. */
export function runPipeline(
  steps: readonly Step[],
  handler: Handler,
  context: Context,
): Promise<Answer> {
  // The furthest step started. Each around-step gets a `next` of its own that knows its place,
  // as hono's compose does: a second call of it would run the rest of the pipeline again, or
  // from wherever the pipeline had got to, so it fails the request instead.
  let started = -1;
  const run = (index: number): Promise<Answer> => {
    if (index <= started)
      return Promise.reject(new Error('petstore-fake: a step called next() more than once'));
    started = index;
    const step = steps[index];
    // A step or handler that throws fails the promise, whichever way it was written.
    try {
      if (step === undefined) return Promise.resolve(handler(context));
      if (typeof step === 'function') return Promise.resolve(step(context, () => run(index + 1)));
      let end = index + 1;
      while (end < steps.length && typeof steps[end] !== 'function') end += 1;
      started = end - 1;
      return run(end).then((answer) => applyAfter(steps, end - 1, index, context, answer));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return run(0);
}

/**
 * A step with state of its own (a ledger, a queue, a report): `reset` puts that state back as
 * the fake started, for a control reset; `control` is what it adds to the control surface and
 * `describe` what it adds to the surface's summary. A stateless step needs no policy around it.
 */
export interface Policy<Control extends object = object> {
  /** Its step in the pipeline; a recorder has none, and reads every exchange instead. */
  readonly step?: Step;
  /** Reads every exchange of the fake (pipeline/exchange.ts): a recorder's way in. */
  readonly read?: ExchangeReader;
  /**
   * A recorder's clear and the control route that makes it (`DELETE requests`): where processes
   * share the fake's exchanges, each process's copy of the record is cleared at the same point.
   */
  readonly clear?: { readonly route: string; readonly run: () => void };
  readonly reset: () => void | Promise<void>;
  readonly control?: Control;
  readonly describe?: () => Record<string, unknown>;
  /** How its state leaves the fake and comes back (browser storage, another tab taking over). */
  readonly state?: PolicyState;
  /**
   * The control routes it brings, over its own `control` (control/control-route.ts): the control
   * surface over HTTP serves them beside its own.
   */
  readonly routes?: object;
}

/**
 * A policy's own state as it is saved and loaded: `save` returns plain data (structured-clone
 * and JSON safe); `load` checks what `save` returned (or `undefined`: nothing saved, as for a
 * fake that just started) whole, and returns the change that puts it back, so a session is
 * applied only once every part of it has been read. A value it cannot read throws.
 */
export interface PolicyState {
  /** The key its state is saved under; stable across versions. */
  readonly name: string;
  save(): unknown;
  load(saved: unknown): () => void;
  /**
   * A count that moves whenever the state changes, for a state too large to save on every
   * request (a recording): while it stands still, the last saved value is saved again as is.
   */
  changes?(): number;
}
