/**
 * What the `POST /pets` checks judge, on any create whoever sent it: a valid NewPet that is
 * accepted gets 201 with a Pet (the OpenAPI document's) carrying what was sent; a body without
 * name or categoryId, with an invalid value, that is not a JSON object, or not JSON at all, is
 * refused with a 4xx (400 where the interface says so). Answers that say nothing of the body
 * (401, 413, 429: refused before the body was read) are not evidence either way.
 */
import { int64 } from '../../contract/interface-facts.ts';
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
function newPetProblem(body: { json: JsonObject; exact: JsonObject }): string | undefined {
  const problem = checkNewPet(body.json);
  if (problem !== undefined) return problem;
  const categoryId = body.exact.categoryId;
  if (typeof categoryId === 'bigint' && (categoryId < int64.min || categoryId > int64.max))
    return `categoryId ${categoryId} is outside int64`;
  return undefined;
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
    return status >= 200 && status < 300 && body !== undefined && newPetProblem(body) === undefined;
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
      newPetProblem(body) !== undefined &&
      answeredOnTheBody(exchange.response)
    );
  },
  judge: (exchange) => {
    const body = objectOf(exchange) as { json: JsonObject; exact: JsonObject };
    return statusProblem(
      exchange.response as ReceivedResponse,
      [400],
      `POST /pets with an invalid value (${newPetProblem(body) ?? ''})`,
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
