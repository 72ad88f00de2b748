/**
 * Which of the interface's rules a stubbed answer breaks, named as the interface document names
 * them (`Limits: rate limit headers present on every response`). A stub may break them (that is
 * its use); saying which keeps anyone from taking a stub's answer for the interface's. What every
 * answer of `/v1` gets on its way out (the caller's `X-RateLimit-*`, getPet's deprecation
 * headers) counts as there unless the stub removes it.
 */
import { checkPet } from '../../../base/contract/schemas.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { coverageItems } from '../coverage/coverage-items.ts';
import { isErrorBody } from '../coverage/interface-coverage.ts';
import type { StubAnswer } from './stubbed-answers.ts';

/** The statuses the interface lists for each operation (its coverage items'), e.g. listPets 200, 401, 429. */
const documented = new Map<string, number[]>();
for (const { id, kind } of coverageItems) {
  if (kind !== 'status') continue;
  const [operationId = '', status = ''] = id.split(' ');
  documented.set(operationId, [...(documented.get(operationId) ?? []), Number(status)]);
}

/** What a successful answer of each operation carries (Resources and Endpoints). */
const successBodies: Record<OperationId, { status: number; shape: string; many: boolean }> = {
  listPets: { status: 200, shape: 'Pets (an array of Pet)', many: true },
  createPet: { status: 201, shape: 'Pet', many: false },
  getPet: { status: 200, shape: 'Pet', many: false },
};

const rateLimitHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** The JSON the answer's body holds, `undefined` for none, or `invalid` for text that is no JSON. */
function bodyJson(answer: StubAnswer): unknown {
  if (answer.body !== undefined) return answer.body;
  if (answer.rawBody === undefined || answer.rawBody === '') return undefined;
  try {
    return JSON.parse(answer.rawBody);
  } catch {
    return invalid;
  }
}
const invalid = Symbol('invalid JSON');

/** The rules of the interface a stub's answer to `operationId` breaks; empty when none. */
export function rulesBroken(operationId: OperationId, answer: StubAnswer): string[] {
  // A dropped connection sends no answer to judge.
  if (answer.drop === true || answer.status === undefined) return [];
  const { status } = answer;
  const broken: string[] = [];
  const removed = new Set((answer.removeHeaders ?? []).map((name) => name.toLowerCase()));
  const set = new Map(
    Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const statuses = documented.get(operationId) ?? [];
  if (!statuses.includes(status))
    broken.push(
      `a ${status} is no status of ${operationId} (Endpoints and Errors: it answers ${statuses.join(', ')})`,
    );
  for (const name of rateLimitHeaders) {
    const lower = name.toLowerCase();
    const value = set.get(lower);
    if (removed.has(lower) && value === undefined)
      broken.push(
        `a ${status} without ${name} breaks Limits: rate limit headers present on every response`,
      );
    else if (value !== undefined && !/^\d+$/.test(value.trim()))
      broken.push(
        `${name}: ${JSON.stringify(value.slice(0, 40))} breaks Limits: ${name === 'X-RateLimit-Reset' ? 'a Unix timestamp at which the limit resets' : 'a count of requests'}`,
      );
    else if (
      lower === 'x-ratelimit-reset' &&
      value !== undefined &&
      Number(value) < 1e9 // A countdown, not a Unix time (as interface coverage reads it).
    )
      broken.push(
        `X-RateLimit-Reset: ${value} breaks Limits: a Unix timestamp at which the limit resets (not a countdown)`,
      );
  }
  if (status === 429 && set.get('retry-after') === undefined)
    broken.push(
      'a 429 without Retry-After breaks Errors and Limits: the client retries after the time given in the Retry-After response header',
    );
  const contentType = set.get('content-type');
  if (
    (removed.has('content-type') && contentType === undefined) ||
    (contentType !== undefined && !/^application\/json\b/i.test(contentType.trim()))
  )
    broken.push(
      `a body sent as ${contentType === undefined ? 'no content type' : JSON.stringify(contentType.slice(0, 40))} breaks What the service does: response bodies are JSON (application/json)`,
    );
  const json = bodyJson(answer);
  if (json === invalid)
    broken.push(
      'a body that is not JSON breaks What the service does: response bodies are JSON (application/json)',
    );
  else if (status >= 400) {
    if (!isErrorBody(json))
      broken.push(
        `a ${status} without an Error body breaks Errors: every error response has a JSON body shaped as Error (code, message, status)`,
      );
    else if ((json as { status: number }).status !== status)
      broken.push(
        `an Error whose status is ${(json as { status: number }).status} on a ${status} breaks Resources: Error.status is the HTTP status code of the response`,
      );
  } else {
    const success = successBodies[operationId];
    if (status === success.status) {
      const items = success.many ? (Array.isArray(json) ? json : undefined) : [json];
      if (items === undefined || items.some((item) => checkPet(item).length > 0))
        broken.push(
          `a ${status} whose body is not ${success.shape} breaks Endpoints: ${operationId} ${status} carries ${success.shape}`,
        );
    }
  }
  if (
    operationId === 'getPet' &&
    status === 200 &&
    ['deprecation', 'sunset'].some((name) => removed.has(name) && !set.has(name))
  )
    broken.push(
      'a getPet 200 without Deprecation or Sunset breaks Versioning: GET /pets/{petId} is deprecated, removal on 5 December 2030',
    );
  return broken;
}
