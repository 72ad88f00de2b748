/**
 * Replays a Pact V4 file's `Synchronous/HTTP` interactions against any server that claims the
 * interface (staging), setting each provider state up through the interface itself: a pet that
 * must exist is created with POST (its new id takes the recorded one's place in the path), a list
 * that must hold pets gets one, a spent window is spent with GETs, all within a request budget.
 * A state the interface cannot make (no pets on a server that holds some, a banned key) skips the
 * interaction with the reason, as a harness check it could not run; one the user accepts as
 * pending is not set up at all, and its interaction is reported pending.
 *
 * It holds the real key, and the pact is not trusted (read-pact.ts checks every field first):
 * every request goes to a URL checked to be under the base URL, redirects are not followed (the
 * key would go with them), and without writes no POST is sent, neither a recorded one nor a
 * state's.
 */
import { parseJson, stringifyJson } from '../../mock/internal/entry.ts';
import { RegexTimeoutError } from './bounded-regex.ts';
import { responseMismatches } from './match-pact.ts';
import type { Interaction } from './read-pact.ts';

/** What the replay needs: where, with which key, whether it may create pets, and its budget. */
export interface ReplayOptions {
  /** The base URL, ending in `/v1`: the pact's paths are relative to it. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly writes: boolean;
  /** Most requests sent, state setup included. */
  readonly budget: number;
  readonly timeoutMs: number;
  /**
   * Provider states accepted as pending (`--pending`): an interaction in one is neither set up
   * nor sent, and is reported as such. For a state that cannot be set up without harm.
   */
  readonly pending?: ReadonlySet<string>;
  readonly onResult?: (result: InteractionResult) => void;
}

/** How one interaction went. */
export interface InteractionResult {
  readonly description: string;
  readonly verdict: 'pass' | 'fail' | 'skip' | 'pending';
  /** Why it failed (each mismatch), was skipped or is pending (one reason). */
  readonly reasons: readonly string[];
}

/** The replay of a whole pact. */
export interface ReplayResult {
  readonly results: readonly InteractionResult[];
  readonly requests: number;
}

/** An interaction the replay cannot run here; its message is the reason. */
class Skip extends Error {}

const spentWindow = "the key's window is spent";

/** A server's answer, its body read as JSON when it is JSON (every int64 digit kept). */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Replays every HTTP interaction, those that spend the key's window last. */
export async function replayPact(
  interactions: readonly Interaction[],
  options: ReplayOptions,
): Promise<ReplayResult> {
  // One replay: the requests it sent, within the budget, and the key it sends them with.
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const auth = { Authorization: `Bearer ${options.apiKey}` };
  const json: Record<string, string> = { ...auth, 'Content-Type': 'application/json' };
  // Requests sent so far, state setup included.
  let requests = 0;

  async function send(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    if (method !== 'GET' && method !== 'HEAD' && !options.writes)
      throw new Skip(`${method} ${path.slice(0, 80)} is a write: allow writes (--allow-writes)`);
    // The last guard, after read-pact.ts's: the URL as fetch will send it stays under the base.
    const url = new URL(`${options.baseUrl}${path}`);
    if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`))
      throw new Skip(`refused: ${path.slice(0, 80)} does not stay under ${options.baseUrl}`);
    if (requests >= options.budget)
      throw new Skip(`the request budget (${options.budget}) is spent: raise --budget`);
    requests += 1;
    const response = await fetch(url, {
      method,
      headers: init.headers ?? {},
      ...(init.body === undefined ? {} : { body: init.body }),
      // A redirect would carry the key elsewhere: its answer is the answer.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    let body: unknown;
    try {
      // Every digit of an int64 kept: 2^53 + 1 read as 2^53 would match a pact it breaks.
      body = text === '' ? undefined : parseJson(text);
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body };
  }

  /** Puts the server in one state; answers path rewrites (a created pet's id for the recorded one). */
  async function setUp(
    name: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<[string, string] | undefined> {
    if (/^a key on the .+ plan$/.test(name)) return undefined;
    const exists = /^pet (\d+) exists$/.exec(name);
    if (exists?.[1] !== undefined) return createPet(name, exists[1], params);
    const absent = /^pet (\d+) does not exist$/.exec(name);
    if (absent !== null) {
      const found = await send('GET', `/pets/${absent[1]}`, { headers: auth });
      if (found.status === 200)
        throw new Skip(
          `"${name}": pet ${absent[1]} exists here, and the interface cannot delete it`,
        );
      return undefined;
    }
    const status = typeof params.status === 'string' ? params.status : undefined;
    if (/^(pets exist|a pet with status \w+ exists)$/.test(name)) return somePets(name, status);
    if (/^no pets( with status \w+)?$/.test(name)) {
      const list = await firstPet(status);
      if (Array.isArray(list.body) && list.body.length > 0)
        throw new Skip(`"${name}": the server holds some, and the interface cannot remove them`);
      return undefined;
    }
    if (name === spentWindow) return spendWindow(name);
    if (name === 'the key is banned')
      throw new Skip(`"${name}": setting it up would get the key banned for real`);
    throw new Skip(`unknown provider state "${name}"`);
  }

  /** "pet N exists": a pet made with POST, whose new id takes N's place in the path. */
  async function createPet(
    name: string,
    recordedId: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<[string, string]> {
    if (!options.writes)
      throw new Skip(`"${name}" needs a pet created: allow writes (--allow-writes)`);
    const { id: _id, ...fields } = params;
    const created = await send('POST', '/pets', {
      headers: json,
      body: stringifyJson(fields),
    });
    const id = (created.body as { id?: unknown } | undefined)?.id;
    if (created.status !== 201 || id === undefined)
      throw new Skip(`"${name}": creating the pet answered ${created.status}`);
    // The server's id goes into a path: only digits, never a path of the server's choosing.
    if (!/^\d{1,20}$/.test(String(id)))
      throw new Skip(
        `"${name}": the created pet's id ${stringifyJson(id)?.slice(0, 40)} is no integer`,
      );
    return [`/pets/${recordedId}`, `/pets/${String(id)}`];
  }

  /** "pets exist": one created when writes are allowed, else one the server holds already. */
  async function somePets(name: string, status: string | undefined): Promise<undefined> {
    if (options.writes) {
      const body = stringifyJson({
        name: 'pact-state',
        categoryId: 1,
        ...(status === undefined ? {} : { status }),
      });
      await send('POST', '/pets', { headers: json, body });
      return undefined;
    }
    const list = await firstPet(status);
    if (!Array.isArray(list.body) || list.body.length === 0)
      throw new Skip(`"${name}": the server holds none, and creating one needs --allow-writes`);
    return undefined;
  }

  function firstPet(status: string | undefined): Promise<Answer> {
    const filter = status === undefined ? '' : `&status=${encodeURIComponent(status)}`;
    return send('GET', `/pets?limit=1${filter}`, { headers: auth });
  }

  /** Spends what is left of the window, as X-RateLimit-Remaining says, within the budget. */
  async function spendWindow(name: string): Promise<undefined> {
    for (;;) {
      const probe = await send('GET', '/pets?limit=1', { headers: auth });
      if (probe.status === 429) return undefined;
      const remaining = Number(probe.headers.get('X-RateLimit-Remaining'));
      if (Number.isFinite(remaining) && requests + remaining + 1 > options.budget)
        throw new Skip(
          `"${name}": spending the window takes ${remaining + 1} more requests than the budget allows`,
        );
    }
  }

  /** Sets one interaction up, sends it and judges the answer. */
  async function replayOne(interaction: Interaction): Promise<InteractionResult> {
    const { description } = interaction;
    const pending = interaction.providerStates.find((state) => options.pending?.has(state.name));
    if (pending !== undefined)
      return {
        description,
        verdict: 'pending',
        reasons: [`"${pending.name}" is accepted as pending (--pending): not set up, nothing sent`],
      };
    try {
      const answer = await sendRecorded(interaction);
      if (answer.status === 429 && interaction.response.status !== 429)
        throw new Skip(
          'rate limited (429) before the interaction ran: rerun when the quota resets',
        );
      const problems = responseMismatches(interaction.response, answer);
      return { description, verdict: problems.length === 0 ? 'pass' : 'fail', reasons: problems };
    } catch (error) {
      if (error instanceof Skip || error instanceof RegexTimeoutError)
        return { description, verdict: 'skip', reasons: [error.message] };
      return {
        description,
        verdict: 'skip',
        reasons: [`could not run: ${(error as Error).message}`],
      };
    }
  }

  /** Sets the interaction's states up, then sends its request as recorded, with this key. */
  async function sendRecorded(interaction: Interaction): Promise<Answer> {
    const { request } = interaction;
    let path = request.path;
    for (const state of interaction.providerStates) {
      const rewrite = await setUp(state.name, state.params);
      if (rewrite !== undefined) path = path.replace(rewrite[0], rewrite[1]);
    }
    const headers: Record<string, string> = { ...request.headers };
    if (request.sendsKey) headers.Authorization = auth.Authorization;
    const query = new URLSearchParams();
    for (const [name, values] of Object.entries(request.query))
      for (const value of values) query.append(name, value);
    const search = query.size === 0 ? '' : `?${query}`;
    const content = request.body?.content;
    return send(request.method, `${path}${search}`, {
      headers,
      ...(content === undefined
        ? {}
        : { body: typeof content === 'string' ? content : stringifyJson(content) }),
    });
  }

  const spends = (each: Interaction) =>
    each.providerStates.some((state) => state.name === spentWindow);
  const results: InteractionResult[] = [];
  for (const interaction of [
    ...interactions.filter((each) => !spends(each)),
    ...interactions.filter(spends),
  ]) {
    const result = await replayOne(interaction);
    options.onResult?.(result);
    results.push(result);
  }
  return { results, requests };
}
