/**
 * What the `POST /pets` checks judge, on any create whoever sent it: a valid NewPet that is
 * accepted gets 201 with a Pet (the OpenAPI document's) carrying what was sent; a body without
 * name or categoryId, with an invalid value, that is not a JSON object, or not JSON at all, is
 * refused with a 4xx (400 where the interface says so). Answers that say nothing of the body
 * (401, 413, 429: refused before the body was read) are not evidence either way.
 */
import { int64 } from '../../contract/interface-facts.ts';
import { newPetFieldNames } from '../../contract/pet-fields.ts';
import { checkNewPet, checkPet } from '../../contract/schemas.ts';
import type { Exchange, ReceivedResponse } from '../../http/exchange.ts';
import type { StatelessJudge } from '../check.ts';
import { createdFieldsProblem } from '../created-pet.ts';
import { shapeProblem, statusProblem } from '../expect.ts';
import { bodyOf } from './seen-request.ts';

/**
 * Whether an answer speaks of the body: not a refusal that comes before the body is read (a
 * missing or bad key, a body past a size limit, the rate limit).
 */
function answeredOnTheBody(response: ReceivedResponse | undefined): response is ReceivedResponse {
  return (
    response !== undefined &&
    response.status !== 401 &&
    response.status !== 413 &&
    response.status !== 429
  );
}

type JsonObject = Readonly<Record<string, unknown>>;

/** The sent body as an exact JSON object, or undefined when it is none. */
function objectOf(exchange: Exchange): { json: JsonObject; exact: JsonObject } | undefined {
  const body = bodyOf(exchange);
  if (body?.kind !== 'json') return undefined;
  const { json, exact } = body;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  return { json: json as JsonObject, exact: exact as JsonObject };
}

/** Why a JSON object is not a valid NewPet (the schema, and int64's range exactly), if it is not. */
function newPetProblemIn(body: { json: JsonObject; exact: JsonObject }): string | undefined {
  const problem = checkNewPet(body.json);
  if (problem !== undefined) return problem;
  const categoryId = body.exact.categoryId;
  if (typeof categoryId === 'bigint' && (categoryId < int64.min || categoryId > int64.max))
    return `categoryId ${categoryId} is outside int64`;
  return undefined;
}

/** Each exchange's verdict on its body, `null` for a valid NewPet. */
const newPetProblems = new WeakMap<Exchange, string | null>();

/**
 * Why the body `exchange` sent (`body`, its object) is no valid NewPet, if it is not: checked
 * once per exchange, as bodyOf reads it once, for the several judges of a create that ask.
 */
function newPetProblem(
  exchange: Exchange,
  body: { json: JsonObject; exact: JsonObject },
): string | undefined {
  let problem = newPetProblems.get(exchange);
  if (problem === undefined) {
    problem = newPetProblemIn(body) ?? null;
    newPetProblems.set(exchange, problem);
  }
  return problem ?? undefined;
}

/** What a body without a required field lacks, e.g. `without name`. */
function missing(body: JsonObject): string | undefined {
  const absent = ['name', 'categoryId'].filter((field) => !(field in body));
  return absent.length === 0 ? undefined : `without ${absent.join(' and ')}`;
}

/** 201 with a Pet carrying what was sent, for a valid NewPet the server accepts. */
export const createdJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const status = exchange.response?.status ?? 0;
    const body = objectOf(exchange);
    return (
      status >= 200 &&
      status < 300 &&
      body !== undefined &&
      newPetProblem(exchange, body) === undefined
    );
  },
  judge: (exchange) => {
    const response = exchange.response as ReceivedResponse;
    const what = 'POST /pets with a valid NewPet';
    const problem =
      statusProblem(response, [201], what) ?? shapeProblem(response, checkPet, 'POST /pets');
    if (problem !== undefined) return problem;
    const sent = (objectOf(exchange) as { exact: JsonObject }).exact;
    return createdFieldsProblem(response.exact as JsonObject, sent, what);
  },
  unseen: 'no valid NewPet was accepted (a 2xx to POST /pets)',
};

/**
 * A valid NewPet the interface leaves open (what `pick` says: names at an edge, int64 edges,
 * extra fields): 400, or 201 carrying what was sent; never a 5xx or another answer.
 */
function storedOr400(
  pick: (body: { json: JsonObject; exact: JsonObject }) => string | undefined,
  unseen: string,
): StatelessJudge {
  const picked = (exchange: Exchange) => {
    const body = objectOf(exchange);
    return body === undefined || newPetProblem(exchange, body) !== undefined
      ? undefined
      : pick(body);
  };
  return {
    appliesTo: (exchange) => picked(exchange) !== undefined && answeredOnTheBody(exchange.response),
    judge: (exchange) => {
      const response = exchange.response as ReceivedResponse;
      const what = `POST /pets with ${picked(exchange) ?? ''}`;
      if (response.status === 400) return undefined;
      const problem =
        statusProblem(response, [201, 400], what) ?? shapeProblem(response, checkPet, what);
      if (problem !== undefined) return problem;
      const sent = (objectOf(exchange) as { exact: JsonObject }).exact;
      return createdFieldsProblem(response.exact as JsonObject, sent, what);
    },
    unseen,
  };
}

/** Longest name that is not "very long" (the active check sends 300 characters and more). */
const plainNameLength = 100;

/** Names at the edges the interface leaves open: very long, non-ASCII, control characters, blank. */
export const nameEdgeCasesJudge = storedOr400(({ json }) => {
  const name = json.name as string;
  if ([...name].length > plainNameLength) return `a name of ${[...name].length} characters`;
  if (/[^\x20-\x7e]/u.test(name)) return 'a name with characters outside printable ASCII';
  return name.trim() === '' ? 'a blank name' : undefined;
}, 'no POST /pets with a very long, non-ASCII, control-character or blank name was seen');

/** categoryId where a double loses digits (2^53 and past, either sign): every digit kept, or 400. */
export const int64CategoryIdJudge = storedOr400(({ exact }) => {
  const categoryId = exact.categoryId;
  const edge = 2n ** 53n;
  return typeof categoryId === 'bigint' && (categoryId >= edge || categoryId <= -edge)
    ? `categoryId ${categoryId}`
    : undefined;
}, 'no POST /pets with a categoryId of 2^53 or more (either sign) was seen');

/** A NewPet with fields it does not define: stored as sent, or 400. */
export const extraFieldsJudge = storedOr400(({ json }) => {
  const extra = Object.keys(json).filter((field) => !newPetFieldNames.includes(field));
  return extra.length === 0 ? undefined : `extra fields ${extra.join(', ').slice(0, 80)}`;
}, 'no POST /pets with a field NewPet does not define was seen');

/** Rule 1: 400 when name or categoryId is absent. */
export const requiredFieldsJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const body = objectOf(exchange);
    return (
      body !== undefined && missing(body.json) !== undefined && answeredOnTheBody(exchange.response)
    );
  },
  judge: (exchange) =>
    statusProblem(
      exchange.response as ReceivedResponse,
      [400],
      `POST /pets ${missing((objectOf(exchange) as { json: JsonObject }).json) ?? ''}`,
    ),
  unseen: 'no POST /pets without name or categoryId was seen',
};

/** 400 for a field of the wrong type, an unknown status, a categoryId outside int64. */
export const invalidValuesJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const body = objectOf(exchange);
    return (
      body !== undefined &&
      missing(body.json) === undefined &&
      newPetProblem(exchange, body) !== undefined &&
      answeredOnTheBody(exchange.response)
    );
  },
  judge: (exchange) => {
    const body = objectOf(exchange) as { json: JsonObject; exact: JsonObject };
    return statusProblem(
      exchange.response as ReceivedResponse,
      [400],
      `POST /pets with an invalid value (${newPetProblem(exchange, body) ?? ''})`,
    );
  },
  unseen:
    'no POST /pets with a value of the wrong type, an unknown status or an out-of-range categoryId was seen',
};

/** 400 when the body is missing, empty or JSON that is not an object. */
export const bodyRequiredJudge: StatelessJudge = {
  appliesTo: (exchange) => {
    const body = bodyOf(exchange);
    if (body === undefined || !answeredOnTheBody(exchange.response)) return false;
    return body.kind === 'none' || (body.kind === 'json' && objectOf(exchange) === undefined);
  },
  judge: (exchange) => {
    const body = bodyOf(exchange);
    const label =
      body?.kind === 'json'
        ? `with ${JSON.stringify(body.json)?.slice(0, 40)} as body`
        : 'without a body';
    return statusProblem(exchange.response as ReceivedResponse, [400], `POST /pets ${label}`);
  },
  unseen: 'no POST /pets without a body, or with JSON that is not an object, was seen',
};

/** A body that is not JSON: a client error. */
export const malformedJsonJudge: StatelessJudge = {
  appliesTo: (exchange) => bodyOf(exchange)?.kind === 'not-json' && exchange.response !== undefined,
  judge: (exchange) =>
    statusProblem(
      exchange.response as ReceivedResponse,
      (status) => status >= 400 && status < 500,
      'POST /pets with a body that is not JSON',
    ),
  unseen: 'no POST /pets with a body that is not JSON was seen',
};
