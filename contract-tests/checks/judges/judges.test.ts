/**
 * The judges the active checks and the proxy share, on hand-made exchanges: what counts as
 * evidence for a rule and what does not (no false alarm from traffic the rule does not speak of).
 */
import { expect, test } from 'vitest';
import { testExchange } from '../../http/test-exchange.ts';
import { malformedHeaderJudge, missingKeyJudge } from './auth-judges.ts';
import { bodyRequiredJudge, createdJudge, requiredFieldsJudge } from './create-pet-judges.ts';
import { foundJudge } from './get-pet-judges.ts';
import { limitJudge, statusFilterJudge } from './list-pets-judges.ts';
import { authorizationForm } from './seen-request.ts';

const pets = (count: number, status = 'available') =>
  JSON.stringify(
    Array.from({ length: count }, (_, index) => ({
      id: index + 1,
      name: 'a',
      categoryId: 1,
      status,
    })),
  );

test('a bearer token spelt in another case or with more spaces is no malformed header (RFC 9110 section 11.1: the scheme is case-insensitive)', () => {
  expect(authorizationForm({ header: 'bearer abc' })).toBe('bearer');
  expect(authorizationForm({ header: 'Bearer  abc' })).toBe('bearer');
  for (const header of ['Basic abc', 'abc', 'Bearer', 'Bearer a b', 'Bearer: abc'])
    expect(authorizationForm({ header })).toBe('malformed');
  const basic = testExchange({
    status: 200,
    spec: { auth: { header: 'Basic $PETSTORE_API_KEY' } },
  });
  expect(malformedHeaderJudge.judge(basic)).toMatch(
    /with Authorization "Basic .*: got 200 \(expected 401\)/,
  );
});

test('limit=3 answered with 4 pets breaks the limit; a page shorter than its limit is no evidence', () => {
  const over = testExchange({ text: pets(4), spec: { path: '/pets?limit=3' } });
  expect(limitJudge.appliesTo(over)).toBe(true);
  expect(limitJudge.judge(over)).toBe('limit=3 returned 4 pets');
  expect(
    limitJudge.appliesTo(testExchange({ text: pets(2), spec: { path: '/pets?limit=3' } })),
  ).toBe(false);
});

test("a limit or status given twice, or a limit not written plainly, is not the interface's to judge", () => {
  for (const path of ['/pets?limit=3&limit=5', '/pets?limit=03', '/pets?limit=3.0'])
    expect(limitJudge.appliesTo(testExchange({ text: pets(20), spec: { path } }))).toBe(false);
  const twice = testExchange({
    text: pets(2, 'sold'),
    spec: { path: '/pets?status=sold&status=pending' },
  });
  expect(statusFilterJudge.appliesTo(twice)).toBe(false);
});

test('a body the proxy did not keep (past --max-body-bytes) is not judged as missing', () => {
  const unread = testExchange({
    status: 201,
    spec: { method: 'POST', operationId: 'createPet', bodyUnread: true },
  });
  expect(bodyRequiredJudge.appliesTo(unread)).toBe(false);
  expect(requiredFieldsJudge.appliesTo(unread)).toBe(false);
});

test('a 413, 414 or 431 to a request without a key says nothing of the key; a 200 breaks the rule', () => {
  for (const status of [413, 414, 431])
    expect(missingKeyJudge.appliesTo(testExchange({ status, spec: { auth: 'none' } }))).toBe(false);
  const served = testExchange({ status: 200, spec: { auth: 'none' } });
  expect(missingKeyJudge.appliesTo(served)).toBe(true);
  expect(missingKeyJudge.judge(served)).toMatch(
    /^GET \/pets without a key: got 200 \(expected 401\)/,
  );
});

test('a 201 must carry every digit of the categoryId sent, and a refused create of a valid NewPet is no evidence', () => {
  const sent = '{"name":"Rex","categoryId":9223372036854775807}';
  const rounded = testExchange({
    status: 201,
    text: '{"id":200,"name":"Rex","categoryId":9223372036854776000}',
    spec: { method: 'POST', operationId: 'createPet', body: sent },
  });
  expect(createdJudge.appliesTo(rounded)).toBe(true);
  expect(createdJudge.judge(rounded)).toMatch(
    /categoryId 9223372036854775807 came back as 9223372036854776000/,
  );
  // The interface states no constraint on name, so a server may refuse one: not this rule's.
  const refused = testExchange({
    status: 400,
    text: '{"code":"bad","message":"m","status":400}',
    spec: { method: 'POST', operationId: 'createPet', body: sent },
  });
  expect(createdJudge.appliesTo(refused)).toBe(false);
});

test('a pet read by id is compared with how the traffic showed it before, and only then', () => {
  const judge = foundJudge.start();
  const listing = testExchange({ text: '[{"id":5,"name":"Rex","categoryId":1}]' });
  const byId = (name: string) =>
    testExchange({
      text: `{"id":5,"name":"${name}","categoryId":1}`,
      spec: { path: '/pets/5', operationId: 'getPet' },
    });
  // Parsed JSON here, as the proxy's exact parse gives bigint ids: the judge keys pets by them.
  const exact = (exchange: ReturnType<typeof testExchange>) => ({
    ...exchange,
    response: exchange.response && {
      ...exchange.response,
      exact: JSON.parse(exchange.response.text, (_key, value) =>
        typeof value === 'number' ? BigInt(value) : value,
      ),
    },
  });
  expect(judge.observe(exact(byId('Rex')))).toBeUndefined();
  expect(judge.judged()).toBe(0);
  judge.observe(exact(listing));
  expect(judge.observe(exact(byId('Rex')))).toBeUndefined();
  expect(judge.observe(exact(byId('Max')))).toBe(
    'GET /pets/5 differs from the listing: name "Rex" became "Max"',
  );
  expect(judge.judged()).toBe(2);
});
