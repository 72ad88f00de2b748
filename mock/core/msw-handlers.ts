/**
 * The msw face of the fake, for the browser (`setupWorker`) and Node (`setupServer`) doors: one
 * handler that claims the fake's URLs with a plain string check and answers with the behaviour
 * core. A predicate instead of a path pattern: msw's pattern matcher throws on paths past 8,192
 * characters, and the core answers those 414 `uri_too_long` instead.
 */
import { http, type RequestHandler } from 'msw';
import type { Behaviour } from './assembly.ts';
import { fromFetchRequest, toFetchResponse } from './fetch-adapter.ts';

/** The msw handlers of one fake (`server.use()` overrides go in front of them as usual). */
export function createMswHandlers(behaviour: Pick<Behaviour, 'answer' | 'owns'>): RequestHandler[] {
  return [
    http.all(
      ({ request }) => behaviour.owns(request.url),
      async ({ request }) => {
        const answer = await behaviour.answer(fromFetchRequest(request));
        // Chaos or a stub dropped the connection: msw fails the request as a network error.
        return answer.drop === true ? Response.error() : toFetchResponse(answer, request.method);
      },
    ),
  ];
}
