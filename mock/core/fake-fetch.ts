/**
 * `fake.fetch`: a `fetch` answered by the behaviour core in this process, with no interception
 * and no socket, for code that takes its fetch as an option (openapi-fetch, ky, an axios adapter).
 */
import type { Behaviour } from './assembly.ts';
import { fromFetchRequest, toFetchResponse } from './fetch-adapter.ts';

/** A fetch over one fake. URLs outside its origins fail as an unreachable host would. */
export function createFakeFetch(
  behaviour: Pick<Behaviour, 'answer' | 'owns'>,
  origins: readonly string[],
): typeof fetch {
  return async (input, init) => {
    const request =
      input instanceof Request && init === undefined ? input : new Request(input, init);
    request.signal.throwIfAborted();
    if (!behaviour.owns(request.url)) {
      throw new TypeError(
        `fetch failed: fake.fetch answers only ${origins.join(' and ')} under /v1 and the control prefix, not ${request.url.slice(0, 200)}`,
      );
    }
    const answer = await behaviour.answer(fromFetchRequest(request));
    request.signal.throwIfAborted();
    // Chaos or a stub dropped the connection: fail as fetch does when a server closes without
    // answering.
    if (answer.drop === true)
      throw new TypeError(
        `fetch failed: the fake dropped the connection (${answer.injected ?? 'chaos'})`,
      );
    return toFetchResponse(answer, request.method);
  };
}
