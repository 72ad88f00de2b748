/** What a route is, and where the steps find the request's route. */

import type { ControllableClock } from '../../base/clock/clock.ts';
import type { OperationId } from '../../base/contract/types.ts';
import type { ResolvedConfig } from '../../pipeline/config/config.ts';
import type { RouteStore } from '../../pipeline/fake-state.ts';
import { createSlot, type Handler } from '../../pipeline/pipeline.ts';

/** How a route is served: its operation, its id (if it is one of the interface's) and extra headers. */
export interface Route {
  readonly operation: Handler;
  readonly operationId?: OperationId;
  /** Headers added to every answer of the route, errors included (e.g. deprecation). */
  readonly headers?: (url: URL) => Record<string, string>;
}

/** A route and its path parameters. */
export interface RouteMatch {
  readonly route: Route;
  /** Path parameters of the route (`petId`), percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
}

/** The route of a request under the base path, for the steps and the operation. */
export const routeSlot = createSlot<RouteMatch>('the route');

/**
 * The store a request's route calls in place of RouteOptions' own, when a step gave it one: on a
 * shared state, the store whose first call carries the request's quota decision
 * (pipeline/shared-admission.ts).
 */
export const requestStoreSlot = createSlot<RouteStore>("the store the request's route calls");

/** What the routes read: the store, the clock and the fake's settings. */
export interface RouteOptions {
  readonly store: RouteStore;
  readonly clock: ControllableClock;
  readonly config: ResolvedConfig;
}
