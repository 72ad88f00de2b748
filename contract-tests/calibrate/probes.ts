/**
 * The probes of `petstore-contract calibrate`: each learns one choice a server makes where the
 * interface says "not shown", with as few requests as it can, or says why it could not. A probe
 * never guesses: an answer that does not settle the choice leaves it unlearned, with the reason.
 */
import type { FakeProfile, ProfileChoices } from '../../mock/internal/entry.ts';
import { createPetRequest, getPetRequest, listPetsRequest } from '../checks/requests.ts';
import { int64, petStatuses } from '../contract/interface-facts.ts';
import { toJsonText } from '../http/exact-json.ts';
import type { Exchange, RequestSpec } from '../http/exchange.ts';
import { parseRetryAfter } from '../http/retry-after.ts';

/** What a probe may do. */
interface ProbeContext {
  send(spec: RequestSpec, options?: { retry429?: boolean; pace?: boolean }): Promise<Exchange>;
  /** Names of pets a probe creates start with it. */
  readonly runPrefix: string;
  /** The key's X-RateLimit-Remaining as last seen. */
  remaining(): number | undefined;
}

/** What the probes found: choices, and the reasons for those they could not learn. */
export interface Findings {
  choices: { -readonly [K in keyof ProfileChoices]?: ProfileChoices[K] };
  errorCodes: Record<string, string>;
  notLearned: Record<string, string>;
}

/** One probe. */
export interface Probe {
  /** The choice it learns, as the profile names it. */
  readonly learns: string;
  /** `writes`: creates pets; `rateLimits`: spends the key's window (`--rate-limits`). */
  readonly needs?: 'writes' | 'rateLimits';
  /** Most requests it sends (the window probe: what the window holds, decided at run time). */
  readonly cost: number;
  run(context: ProbeContext, findings: Findings): Promise<void>;
}

function codeOf(exchange: Exchange): string | undefined {
  const body = exchange.response?.json as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

function statusOf(exchange: Exchange): number | undefined {
  return exchange.response?.status;
}

/** Records the code the server sends where the fake sends `fakeCode`, if the answer has one. */
function noteCode(findings: Findings, fakeCode: string, exchange: Exchange, expected: number) {
  const code = codeOf(exchange);
  if (statusOf(exchange) === expected && code !== undefined) findings.errorCodes[fakeCode] = code;
  else
    findings.notLearned[`errorCodes.${fakeCode}`] =
      `the answer was ${statusOf(exchange) ?? 'no answer'}${code === undefined ? ' without an Error code' : ''}, not the ${expected} whose code this names`;
}

const createdStatus = (exchange: Exchange): string | undefined =>
  (exchange.response?.json as { status?: unknown } | undefined)?.status as string | undefined;

/** Every probe, cheapest and read-only first. */
export const probes: readonly Probe[] = [
  {
    learns: 'errorCodes.unauthorized',
    cost: 1,
    async run(context, findings) {
      noteCode(findings, 'unauthorized', await context.send(listPetsRequest({}, 'none')), 401);
    },
  },
  {
    learns: 'errorCodes.not_found',
    cost: 1,
    async run(context, findings) {
      noteCode(findings, 'not_found', await context.send(getPetRequest(int64.max)), 404);
    },
  },
  {
    learns: 'malformedIdStatus',
    cost: 1,
    async run(context, findings) {
      const exchange = await context.send(getPetRequest('abc'));
      const status = statusOf(exchange);
      if (status === 400) {
        findings.choices.malformedIdStatus = 400;
        noteCode(findings, 'invalid_id', exchange, 400);
      } else if (status === 404) findings.choices.malformedIdStatus = 404;
      else
        findings.notLearned.malformedIdStatus = `GET /pets/abc answered ${status ?? 'nothing'}; the fake answers 400 or 404`;
    },
  },
  {
    learns: 'badQuery',
    cost: 1,
    async run(context, findings) {
      const exchange = await context.send(listPetsRequest({ limit: 0 }));
      const status = statusOf(exchange);
      const rows = exchange.response?.json;
      if (status === 400) {
        findings.choices.badQuery = 'refuse';
        noteCode(findings, 'invalid_query', exchange, 400);
      } else if (status === 200 && Array.isArray(rows) && rows.length === 1)
        findings.choices.badQuery = 'clamp';
      else if (status === 200 && Array.isArray(rows) && rows.length > 1)
        findings.choices.badQuery = 'ignore';
      else
        findings.notLearned.badQuery = `GET /pets?limit=0 answered ${status ?? 'nothing'}${Array.isArray(rows) ? ` with ${rows.length} pets (a store of fewer than 2 pets cannot tell clamping from ignoring)` : ''}`;
    },
  },
  {
    learns: 'defaultStatus',
    needs: 'writes',
    cost: 1,
    async run(context, findings) {
      const body = toJsonText({ name: `${context.runPrefix}default-status`, categoryId: 1n });
      const exchange = await context.send(createPetRequest(body));
      const status = createdStatus(exchange);
      if (statusOf(exchange) === 201 && (petStatuses as readonly unknown[]).includes(status))
        findings.choices.defaultStatus = status as (typeof petStatuses)[number];
      else
        findings.notLearned.defaultStatus = `POST /pets without status answered ${statusOf(exchange) ?? 'nothing'}${statusOf(exchange) === 201 ? ` with status ${JSON.stringify(status)}` : ''}`;
    },
  },
  {
    learns: 'unknownFields',
    needs: 'writes',
    cost: 1,
    async run(context, findings) {
      const body = toJsonText({
        name: `${context.runPrefix}unknown-field`,
        categoryId: 1n,
        status: 'sold',
        colour: 'brown',
      });
      const exchange = await context.send(createPetRequest(body));
      const status = statusOf(exchange);
      const pet = exchange.response?.json as Record<string, unknown> | undefined;
      if (status === 400) findings.choices.unknownFields = 'refuse';
      else if (status === 201 && pet !== undefined && !('colour' in pet))
        findings.choices.unknownFields = 'ignore';
      else
        findings.notLearned.unknownFields =
          status === 201
            ? 'the server kept the unknown field in the pet it returned; the fake ignores or refuses such fields'
            : `POST /pets with an unknown field answered ${status ?? 'nothing'}`;
    },
  },
  {
    learns: 'errorCodes.invalid_body',
    needs: 'writes',
    cost: 1,
    async run(context, findings) {
      const body = toJsonText({ name: `${context.runPrefix}no-category` });
      noteCode(findings, 'invalid_body', await context.send(createPetRequest(body)), 400);
    },
  },
  {
    learns: 'errorCodes.invalid_json',
    needs: 'writes',
    cost: 1,
    async run(context, findings) {
      noteCode(findings, 'invalid_json', await context.send(createPetRequest('{"name":')), 400);
    },
  },
  {
    learns: 'maxNameLength',
    needs: 'writes',
    cost: 20,
    async run(context, findings) {
      const accepts = async (length: number): Promise<boolean | undefined> => {
        const name = `${context.runPrefix}${'n'.repeat(Math.max(0, length - context.runPrefix.length))}`;
        const status = statusOf(
          await context.send(createPetRequest(toJsonText({ name, categoryId: 1n }))),
        );
        return status === 201 ? true : status === 400 ? false : undefined;
      };
      // The prefix is the shortest name a probe may send (a pet on a shared server must carry it).
      const shortest = context.runPrefix.length;
      let accepted: number | undefined;
      let refused: number | undefined;
      for (const length of [64, 256, 257, 1_000, 10_000]) {
        const outcome = await accepts(length);
        if (outcome === undefined) {
          findings.notLearned.maxNameLength = `a name of ${length} characters got neither 201 nor 400`;
          return;
        }
        if (!outcome) {
          refused = length;
          break;
        }
        accepted = length;
      }
      if (refused === undefined) {
        findings.choices.maxNameLength = null;
        return;
      }
      if (accepted === undefined) {
        if ((await accepts(shortest)) !== true) {
          findings.notLearned.maxNameLength = `even a name of ${shortest} characters (the run prefix) was refused`;
          return;
        }
        accepted = shortest;
      }
      // The limit lies in [accepted, refused): halve the gap.
      while (refused - accepted > 1) {
        const middle = Math.floor((accepted + refused) / 2);
        const outcome = await accepts(middle);
        if (outcome === undefined) {
          findings.notLearned.maxNameLength = `a name of ${middle} characters got neither 201 nor 400`;
          return;
        }
        if (outcome) accepted = middle;
        else refused = middle;
      }
      findings.choices.maxNameLength = accepted;
    },
  },
  {
    learns: 'retryAfterFormat',
    needs: 'rateLimits',
    cost: 0,
    async run(context, findings) {
      const remaining = context.remaining();
      if (remaining === undefined) {
        findings.notLearned.retryAfterFormat = 'no answer carried X-RateLimit-Remaining';
        return;
      }
      for (let sent = 0; sent <= remaining + 1; sent++) {
        const exchange = await context.send(listPetsRequest({ limit: 1 }), {
          pace: false,
          retry429: false,
        });
        if (statusOf(exchange) !== 429) continue;
        noteCode(findings, 'rate_limited', exchange, 429);
        const value = exchange.response?.headers.get('Retry-After') ?? null;
        const parsed = parseRetryAfter(value, exchange.sentAtEpochMs);
        if (parsed === undefined)
          findings.notLearned.retryAfterFormat = `the 429 carried Retry-After ${JSON.stringify(value)}, neither form`;
        else findings.choices.retryAfterFormat = parsed.form;
        return;
      }
      findings.notLearned.retryAfterFormat = `no 429 after ${remaining + 1} requests past X-RateLimit-Remaining ${remaining}`;
    },
  },
];

/** Choices no probe learns, and why: listed in every profile, never guessed. */
const neverLearned: Readonly<Record<string, string>> = {
  ban: 'when a ban starts and how long it lasts: learning it would get the key banned',
  plan: "which plan a key has: pass --plan to the harness; X-RateLimit-Limit shows only the binding window's limit",
  enterpriseLimits: 'custom per contract; not observable without spending the window',
};

/** The profile the findings make. */
export function toProfile(findings: Findings, learnedFrom: string, learnedAt: Date): FakeProfile {
  const errorCodes =
    Object.keys(findings.errorCodes).length === 0 ? {} : { errorCodes: findings.errorCodes };
  return {
    format: 'petstore-profile/1',
    learnedFrom,
    learnedAt: learnedAt.toISOString(),
    choices: { ...findings.choices, ...errorCodes },
    notLearned: { ...findings.notLearned, ...neverLearned },
  };
}
