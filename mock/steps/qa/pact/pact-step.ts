/**
 * The Pact recorder: the interactions a consumer's requests really made with the fake, as a Pact
 * V4 file, one per shape (pact-shape.ts) and provider state (pact-provider-states.ts). The API key
 * is never written (pact-interaction.ts) and the file passes through the fake's one redaction
 * where it is written. Answers QA injected (forced, chaos) and the fake's own 5xx are not
 * recorded: no provider owes them.
 *
 * Its memory is bounded in bytes whatever clients send: a large body is kept as its shape, the
 * recording holds at most `maxPactBytes`, and requests without a valid key, which any web page
 * can send, keep no body and fill at most `maxAnonymousInteractions`.
 */

import { isCount, isJsonObject, stringifyJson } from '../../../base/contract/lossless-json.ts';
import type { Redaction } from '../../../base/messages/redaction.ts';
import type { PolicyCommandLine } from '../../../pipeline/config/policy-command-line.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import { bodyOf, type ControlRoutes } from '../../../pipeline/control-route.ts';
import type { Exchange } from '../../../pipeline/exchange.ts';
import type { Policy } from '../../../pipeline/pipeline.ts';
import { SessionStateError } from '../../../pipeline/session.ts';
import { interactionOf, type PactInteraction } from './pact-interaction.ts';
import {
  applyProviderState,
  type ProviderStateParts,
  type ProviderStateRequest,
} from './pact-provider-states.ts';
import { createShapeNamer } from './pact-shape.ts';

/** What the recorder reads: what provider states change, and the redaction the file passes through. */
interface PactParts extends ProviderStateParts {
  readonly config: { readonly basePath: string; readonly maxNameLength: number };
  readonly redaction: Redaction;
}

/** Names a pact's two sides. */
export interface PactNames {
  readonly consumer?: string;
  readonly provider?: string;
}

/** A Pact V4 file. */
export interface PactFile {
  readonly consumer: { readonly name: string };
  readonly provider: { readonly name: string };
  readonly interactions: readonly PactInteraction[];
  readonly metadata: Record<string, unknown>;
}

/** What the Pact recorder adds to the control surface (part of `fake.control`). */
export interface PactControl {
  /** The interactions recorded since the start or the last reset, as a Pact V4 file. */
  pact(names?: PactNames): PactFile;
  /** Puts the fake in a recorded provider state (what a Pact verifier's state-change call does). */
  providerState(request: ProviderStateRequest): Promise<Record<string, unknown>>;
}

/** Most interactions kept: past it new shapes are counted, not kept (memory stays bounded). */
const maxInteractions = 1000;
/** Most bytes of interactions (as JSON text) kept; past it new shapes are counted, not kept. */
export const maxPactBytes = 8 * 1024 * 1024;
/** Most interactions of requests without a valid key: a page's `no-cors` traffic fills no more. */
export const maxAnonymousInteractions = 50;

/** What a recording counts besides its interactions, as it starts. */
const emptyTallies = () => ({
  bytes: 0,
  anonymous: 0,
  dropped: 0,
  failures: { count: 0, last: '' },
});

const nameProblem = (name: unknown) =>
  typeof name !== 'string' || name.trim() === '' || name.length > 200;

/**
 * What the Pact recorder holds: the interactions kept by shape, what they weigh, and what it
 * could not keep and why. One per fake.
 */
class PactRecording {
  readonly #parts: PactParts;
  readonly #recorded = new Map<string, PactInteraction>();
  /** Bytes of the interactions kept (their JSON text), and what it could not keep and why. */
  #kept = emptyTallies();
  /** Names each exchange's shape; its caches are this recorder's own. */
  readonly #nameShape: ReturnType<typeof createShapeNamer>;
  /**
   * Moves with every change of the recording, so a session saves it again only then. Not for a
   * request left unrecorded: a full recorder would be saved whole on every request, so the count
   * of those is saved with the next change (a reload may show it short).
   */
  changes = 0;

  constructor(parts: PactParts) {
    this.#parts = parts;
    this.#nameShape = createShapeNamer(parts.config.basePath);
  }

  /** Records an exchange of the interface; the pact's metadata says what it missed and why. */
  read(exchange: Exchange): void {
    try {
      this.#record(exchange);
    } catch (error) {
      this.changes += 1;
      this.#kept.failures.count += 1;
      this.#kept.failures.last = String((error as Error).message).slice(0, 200);
    }
  }

  /** Records one exchange, unless one of its shape is kept already. */
  #record(exchange: Exchange): void {
    const { operationId } = exchange;
    if (
      exchange.kind !== 'api' ||
      operationId === null ||
      exchange.status >= 500 ||
      exchange.injected !== null ||
      exchange.errorCode === 'host_not_allowed'
    )
      return;
    // Only a create's body, and only for a known key: a request without one keeps no body (any
    // web page can send it).
    const known = exchange.plan !== null;
    const sent = exchange.method === 'POST' && known;
    const requestJson = sent ? exchange.body.json : null;
    const requestText = sent && requestJson === null ? (exchange.body.kept ?? '') : '';
    // Worked out before anything is parsed: a request of a shape already kept costs little.
    const shape = this.#nameShape(exchange, operationId, requestText, requestJson);
    if (this.#recorded.has(shape)) return;
    const kept = this.#kept;
    if (
      this.#recorded.size >= maxInteractions ||
      (!known && kept.anonymous >= maxAnonymousInteractions)
    ) {
      kept.dropped += 1;
      return;
    }
    const { basePath } = this.#parts.config;
    const interaction = interactionOf(
      exchange,
      operationId,
      requestText,
      requestJson,
      shape,
      basePath,
    );
    const size = stringifyJson(interaction).length;
    if (kept.bytes + size > maxPactBytes) {
      kept.dropped += 1;
      return;
    }
    kept.bytes += size;
    if (!known) kept.anonymous += 1;
    this.#recorded.set(shape, interaction);
    this.changes += 1;
  }

  pact({ consumer = 'petstore-consumer', provider = 'petstore' }: PactNames = {}): PactFile {
    if (nameProblem(consumer) || nameProblem(provider))
      throw new ControlInputError('consumer and provider must be names of 1 to 200 characters');
    const { dropped, failures } = this.#kept;
    // Redacted where it is written: GET /__control/pact, --pact-out and the tests' parts.
    return this.#parts.redaction.json({
      consumer: { name: consumer },
      provider: { name: provider },
      interactions: [...this.#recorded.values()],
      metadata: {
        pactSpecification: { version: '4.0' },
        // Request paths are relative to the base URL, as the document's are: verify with /v1 in it.
        baseUrlIncludes: this.#parts.config.basePath,
        petstoreFake: {
          recordedBy: 'petstore-fake',
          notRecorded: dropped,
          ...(failures.count === 0
            ? {}
            : { recordingFailures: failures.count, lastFailure: failures.last }),
        },
      },
    });
  }

  save(): unknown {
    const { anonymous, dropped, failures } = this.#kept;
    return { interactions: [...this.#recorded], anonymous, dropped, failures: { ...failures } };
  }

  /** Puts back what `save` returned, as read whole by `savedRecording`. */
  restore({ interactions, ...tallies }: ReturnType<typeof savedRecording>): void {
    this.#recorded.clear();
    for (const [shape, interaction] of interactions) this.#recorded.set(shape, interaction);
    this.#kept = { ...tallies, failures: { ...tallies.failures } };
    this.changes += 1;
  }
}

/** The Pact recorder's policy: it reads every exchange, so it sees every answer as sent. */
export function pactStep(parts: PactParts): Policy<PactControl> {
  const recording = new PactRecording(parts);
  const reset = () => recording.restore({ interactions: [], ...emptyTallies() });
  return {
    read: (exchange) => recording.read(exchange),
    reset,
    control: {
      pact: (names) => recording.pact(names),
      providerState: (request) => applyProviderState(parts, request),
    },
    routes: pactRoutes,
    state: {
      name: 'pact',
      changes: () => recording.changes,
      save: () => recording.save(),
      load(saved) {
        if (saved === undefined) return reset;
        const kept = savedRecording(saved);
        return () => recording.restore(kept);
      },
    },
  };
}

/**
 * A saved recording checked whole: interactions as the recorder makes them (by shape), within
 * the recorder's own bounds, their bytes counted anew rather than taken from the saved value.
 */
function savedRecording(saved: unknown) {
  const fail = (problem: string): never => {
    throw new SessionStateError(problem);
  };
  if (!isJsonObject(saved) || !Array.isArray(saved.interactions))
    return fail('is not {"interactions": [[shape, interaction]], ...}');
  const count = (value: unknown, what: string) =>
    isCount(value) ? value : fail(`${what} is not a whole number`);
  const failures = isJsonObject(saved.failures) ? saved.failures : fail('has no failures');
  const interactions: [string, PactInteraction][] = [];
  let bytes = 0;
  for (const entry of saved.interactions as unknown[]) {
    const [shape, interaction] = Array.isArray(entry) ? entry : [];
    if (
      typeof shape !== 'string' ||
      !isJsonObject(interaction) ||
      interaction.type !== 'Synchronous/HTTP' ||
      !isJsonObject(interaction.request) ||
      !isJsonObject(interaction.response)
    )
      return fail('has an interaction that is not a [shape, Synchronous/HTTP interaction] pair');
    bytes += stringifyJson(interaction).length;
    interactions.push([shape, interaction as unknown as PactInteraction]);
  }
  if (interactions.length > maxInteractions || bytes > maxPactBytes)
    fail(`holds more than ${maxInteractions} interactions or ${maxPactBytes} bytes`);
  return {
    interactions,
    bytes,
    anonymous: count(saved.anonymous, 'anonymous'),
    dropped: count(saved.dropped, 'dropped'),
    failures: {
      count: count(failures.count, 'failures.count'),
      last: typeof failures.last === 'string' ? failures.last.slice(0, 200) : '',
    },
  };
}

const pactRoutes: ControlRoutes<PactControl> = {
  'GET pact': async (control, request) => {
    const query = new URL(request.url).searchParams;
    const names = ['consumer', 'provider'].filter((side) => query.has(side));
    return { body: control.pact(Object.fromEntries(names.map((side) => [side, query.get(side)]))) };
  },
  // { state, params, action }, as Pact verifiers send it.
  'POST provider-states': async (control, request) => {
    const body = await bodyOf(request, ['state', 'params', 'action', 'consumer']);
    const values = await control.providerState(body as unknown as ProviderStateRequest);
    return {
      body: values,
      action: `provider state ${String(body.action ?? 'setup')}: ${String(body.state).slice(0, 80)}`,
    };
  },
};

/** `npm start --pact-out <file>`. */
pactStep.commandLine = {
  exitFiles: [
    {
      name: 'pact-out',
      help: 'on exit, write the Pact V4 file of what the clients did there',
      finish(control) {
        const pact = control.pact();
        return {
          text: () => `${stringifyJson(pact, 2)}\n`,
          done: (path) => `pact written to ${path} (${pact.interactions.length} interactions)`,
        };
      },
    },
  ],
} satisfies PolicyCommandLine<PactControl>;
