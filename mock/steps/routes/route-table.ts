/**
 * Which route answers a request under `/v1`: the three operations (HEAD answers as GET, without
 * a body), and the unknown-route answer for everything else. Matches as msw's path patterns
 * do: case-sensitive, one trailing slash ignored, the path id percent-decoded (kept as
 * sent when it does not decode).
 */
import type { Handler, Step } from '../../pipeline/pipeline.ts';
import { createPet } from './create-pet.ts';
import { getPet, getPetHeaders } from './get-pet.ts';
import { listPets } from './list-pets.ts';
import { type Route, type RouteMatch, type RouteOptions, routeSlot } from './route.ts';
import { unknownRoute } from './unknown-route.ts';

/** The routes of one fake: finds the route of a method and path (below the base path). */
export type RouteTable = (method: string, path: string) => RouteMatch;

const none: Readonly<Record<string, string>> = Object.freeze({});

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Creates the route table; a route is found for a method and the path below the base path (e.g. `/pets/7`). */
export function createRouteTable(options: RouteOptions): RouteTable {
  const listRoute: Route = { operationId: 'listPets', operation: listPets(options) };
  const createRoute: Route = { operationId: 'createPet', operation: createPet(options) };
  const getRoute: Route = {
    operationId: 'getPet',
    operation: getPet(options),
    headers: getPetHeaders(options.config),
  };
  const otherRoute: Route = { operation: unknownRoute(options.config.basePath) };
  return (method, path) => {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const reads = method === 'GET' || method === 'HEAD';
    if (trimmed === '/pets') {
      if (reads) return { route: listRoute, params: none };
      if (method === 'POST') return { route: createRoute, params: none };
    } else if (reads && trimmed.startsWith('/pets/')) {
      const segment = trimmed.slice(6);
      if (segment !== '' && !segment.includes('/'))
        return { route: getRoute, params: { petId: decodeSegment(segment) } };
    }
    return { route: otherRoute, params: none };
  };
}

/** The step: adds the route's own headers (getPet's deprecation) to every answer it gets. */
export const routeHeadersStep: Step = {
  after(context, answer) {
    const extra = context.get(routeSlot)?.route.headers?.(context.url);
    if (extra !== undefined) Object.assign(answer.headers, extra);
    return answer;
  },
};

/** The step: finds the route of the request under `basePath`, for every later step and the handler. */
export function routingStep(table: RouteTable, basePath: string): Step {
  return (context, next) => {
    context.set(
      routeSlot,
      table(context.request.method, context.url.pathname.slice(basePath.length)),
    );
    return next();
  };
}

/** The handler at the end of the interface's pipeline: the route's operation. */
export const answerRoute: Handler = (context) => context.need(routeSlot).route.operation(context);
