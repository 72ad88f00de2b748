/**
 * Which route answers a request under `/v1`: the three operations (HEAD answers as GET, without
 * a body), and the unknown-route answer for everything else. Matches as the msw patterns it
 * replaced did: case-sensitive, one trailing slash ignored, the path id percent-decoded (kept as
 * sent when it does not decode).
 */
import type { FakeState } from '../core/fake-state.ts';
import type { Route } from '../pipeline.ts';
import { createPet } from './create-pet.ts';
import { getPet, getPetHeaders } from './get-pet.ts';
import { listPets } from './list-pets.ts';
import { unknownRoute } from './unknown-route.ts';

const listRoute: Route = { operationId: 'listPets', operation: listPets };
const createRoute: Route = { operationId: 'createPet', operation: createPet };
const getRoute: Route = {
  operationId: 'getPet',
  operation: getPet,
  headers: (url: URL, state: FakeState) => getPetHeaders(url, state),
};
const otherRoute: Route = { operation: unknownRoute };

/** A route and its path parameters. */
export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

const none: Readonly<Record<string, string>> = Object.freeze({});

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Finds the route for a method and the path below the base path (e.g. `/pets/7`). */
export function findRoute(method: string, path: string): RouteMatch {
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
}
