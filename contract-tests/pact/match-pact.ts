/**
 * Whether an answer meets a Pact V4 interaction's response: its status, each header it states
 * (by its rule, else equal; a media type compared without parameters), and its body by the
 * matching rules (`type` with `min`, `integer`, `number`, `regex`, `equality`), each found by its
 * path's tokens as pact_models finds it (`$['first name']` is the field `first name`), else equal. The
 * subset of Pact matching the fake's pacts use, as the Pact specification's V4 README describes
 * it; a rule it does not know is reported as a mismatch rather than passed. A regex runs with a
 * time limit (bounded-regex.ts): past it, a RegexTimeoutError, no verdict.
 */
import { fieldPath, type PactPathToken, stringifyJson } from '../../mock/internal/entry.ts';
import { regexMatches } from './bounded-regex.ts';
import type { BodyRule, ExpectedResponse, Matcher } from './read-pact.ts';

/** What came back. */
export interface ActualResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** A JSON value's type; an int64 past 2^53 (a `bigint`, read exactly) is a number as any other. */
const typeOf = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'bigint'
        ? 'number'
        : typeof value;

/** How long one regex may run on one value (ms). */
const regexTimeoutMs = 250;

function applyMatcher(matcher: Matcher, actual: unknown, expected: unknown): string | undefined {
  switch (matcher.match) {
    case 'type': {
      if (typeOf(actual) !== typeOf(expected))
        return `expected a ${typeOf(expected)}, got ${typeOf(actual)}`;
      if (Array.isArray(actual) && matcher.min !== undefined && actual.length < matcher.min)
        return `expected at least ${matcher.min} item(s), got ${actual.length}`;
      if (Array.isArray(actual) && matcher.max !== undefined && actual.length > matcher.max)
        return `expected at most ${matcher.max} item(s), got ${actual.length}`;
      return undefined;
    }
    case 'integer':
      return typeof actual === 'bigint' || Number.isInteger(actual)
        ? undefined
        : `expected an integer, got ${stringifyJson(actual)}`;
    case 'number':
      return typeOf(actual) === 'number'
        ? undefined
        : `expected a number, got ${stringifyJson(actual)}`;
    case 'regex':
      return regexMatches(matcher.regex ?? '', String(actual), regexTimeoutMs)
        ? undefined
        : `${stringifyJson(actual)} does not match /${matcher.regex}/`;
    case 'equality':
      return stringifyJson(actual) === stringifyJson(expected)
        ? undefined
        : `expected ${stringifyJson(expected)}, got ${stringifyJson(actual)}`;
    default:
      return `matcher "${matcher.match}" is not supported`;
  }
}

/** How well a path token matches a path's fragment, as pact_models weighs it: 2 exact, 1 a wildcard. */
function tokenWeight(token: PactPathToken, fragment: string | number): number {
  switch (token.kind) {
    case 'root':
      return fragment === '$' ? 2 : 0;
    case 'field':
      return String(fragment) === token.name ? 2 : 0;
    case 'index':
      return fragment === token.index || String(fragment) === String(token.index) ? 2 : 0;
    case 'star-index':
      return typeof fragment === 'number' || /^\d+$/.test(fragment) ? 1 : 0;
    case 'star':
      return 1;
  }
}

/**
 * The matchers of the rule for a body path (`['$', 'id']`, `['$', 0, 'name']`): of the rules
 * whose path has its length and matches it, the one pact_models weighs highest (`$[0].id` over
 * `$[*].id`); undefined when none does.
 */
function ruleFor(
  rules: readonly BodyRule[],
  path: readonly (string | number)[],
): readonly Matcher[] | undefined {
  let best: { weight: number; matchers: readonly Matcher[] } | undefined;
  for (const rule of rules) {
    if (rule.tokens.length !== path.length) continue;
    let weight = 1;
    for (const [index, token] of rule.tokens.entries())
      weight *= tokenWeight(token, path[index] as string | number);
    if (weight > 0 && (best === undefined || weight > best.weight))
      best = { weight, matchers: rule.matchers };
  }
  return best?.matchers;
}

/** A body path as a message shows it, written as a pact writes it (`$.id`, `$['first name']`). */
function shown(path: readonly (string | number)[]): string {
  return path
    .slice(1)
    .reduce<string>(
      (text, step) =>
        typeof step === 'number'
          ? `${text}[${step}]`
          : (fieldPath(text, step) ?? `${text}[${stringifyJson(step)}]`),
      '$',
    );
}

function compareBody(
  rules: readonly BodyRule[],
  path: readonly (string | number)[],
  expected: unknown,
  actual: unknown,
  problems: string[],
): void {
  const matchers = ruleFor(rules, path);
  if (matchers !== undefined) {
    for (const matcher of matchers) {
      const problem = applyMatcher(matcher, actual, expected);
      if (problem !== undefined) problems.push(`${shown(path)}: ${problem}`);
    }
  } else if (typeOf(actual) !== typeOf(expected)) {
    problems.push(
      `${shown(path)}: expected ${stringifyJson(expected)}, got ${stringifyJson(actual)}`,
    );
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    // With a type rule every item is held against the first expected one; without, item by item.
    if (matchers === undefined && actual.length !== expected.length)
      problems.push(`${shown(path)}: expected ${expected.length} item(s), got ${actual.length}`);
    actual.forEach((item, index) => {
      const template = matchers === undefined ? expected[index] : expected[0];
      if (template !== undefined) compareBody(rules, [...path, index], template, item, problems);
    });
    return;
  }
  if (typeOf(expected) === 'object' && typeOf(actual) === 'object') {
    const actualObject = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
      if (!Object.hasOwn(actualObject, key)) problems.push(`${shown([...path, key])}: missing`);
      else compareBody(rules, [...path, key], value, actualObject[key], problems);
    }
    return;
  }
  if (matchers === undefined && stringifyJson(actual) !== stringifyJson(expected))
    problems.push(
      `${shown(path)}: expected ${stringifyJson(expected)}, got ${stringifyJson(actual)}`,
    );
}

const mediaType = (value: string) => value.split(';')[0]?.trim().toLowerCase() ?? '';

/** Every way the answer differs from the interaction's response; empty when it matches. */
export function responseMismatches(expected: ExpectedResponse, actual: ActualResponse): string[] {
  const problems: string[] = [];
  if (actual.status !== expected.status)
    problems.push(`status: expected ${expected.status}, got ${actual.status}`);
  const headerRules = expected.matchingRules?.header ?? {};
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const wanted = Array.isArray(value) ? value.join(', ') : String(value);
    const got = actual.headers.get(name);
    if (got === null) {
      problems.push(`header ${name}: missing`);
      continue;
    }
    const matchers = headerRules[name]?.matchers;
    if (matchers !== undefined) {
      for (const matcher of matchers) {
        const problem = applyMatcher(matcher, got, wanted);
        if (problem !== undefined) problems.push(`header ${name}: ${problem}`);
      }
    } else if (
      name.toLowerCase() === 'content-type' ? mediaType(got) !== mediaType(wanted) : got !== wanted
    )
      problems.push(`header ${name}: expected "${wanted}", got "${got}"`);
  }
  if (expected.body?.content !== undefined)
    compareBody(
      expected.matchingRules?.body ?? [],
      ['$'],
      expected.body.content,
      actual.body,
      problems,
    );
  return problems;
}
