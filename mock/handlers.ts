/**
 * The msw handlers of one fake: the three operations on every configured origin under `/v1`,
 * CORS preflights, a catch-all for unknown routes, and the control surface. These handlers are
 * the fake: the browser worker, `setupServer` and the HTTP server all answer with them.
 */
import { http, type RequestHandler } from 'msw';
import type { FakeControl } from './control/control.ts';
import { createControlHandlers } from './control/control-handlers.ts';
import { errorResponse } from './core/errors.ts';
import type { FakeState } from './core/fake-state.ts';
import { anonymousRateLimitHeaders, withPolicies } from './pipeline.ts';
import { preflightHeaders } from './policies/cors.ts';
import { hostProblem } from './policies/host-check.ts';
import { createPet } from './routes/create-pet.ts';
import { getPet, getPetHeaders } from './routes/get-pet.ts';
import { listPets } from './routes/list-pets.ts';
import { unknownRoute } from './routes/unknown-route.ts';

/** Builds the handlers for every origin of a fake. */
export function createHandlers(state: FakeState, control: FakeControl): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  for (const origin of state.config.origins) {
    const base = `${origin}${state.config.basePath}`;
    handlers.push(
      http.get(`${base}/pets`, withPolicies(state, { operationId: 'listPets' }, listPets)),
      http.post(`${base}/pets`, withPolicies(state, { operationId: 'createPet' }, createPet)),
      http.get(
        `${base}/pets/:petId`,
        withPolicies(state, { operationId: 'getPet', headers: getPetHeaders }, getPet),
      ),
      // Preflights carry no credentials, so they are answered before authentication.
      http.options(`${base}/*`, ({ request }) => {
        const refused = hostProblem(request.headers.get('host'), state.config.allowedHosts);
        if (refused !== undefined)
          return errorResponse('host_not_allowed', refused, anonymousRateLimitHeaders(state));
        return new Response(null, {
          status: 204,
          headers: preflightHeaders(request.headers.get('origin')),
        });
      }),
      http.all(`${base}/*`, withPolicies(state, {}, unknownRoute)),
      http.all(base, withPolicies(state, {}, unknownRoute)),
      ...createControlHandlers(control, origin, state.config),
    );
  }
  return handlers;
}
