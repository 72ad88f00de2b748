import { expect, test } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import type { CheckResult } from '../runner/results.ts';
import { findingsOf, rulesOf } from './findings.ts';

const exchange = (path: string, sentAt: number): Exchange => ({
  spec: { method: 'GET', path, auth: 'none', operationId: 'listPets' },
  url: `http://h/v1${path}`,
  sentAt,
  answeredAt: sentAt + 1,
  sentAtEpochMs: 0,
  authenticated: false,
});

const broken = (
  id: string,
  on?: Exchange,
  status: CheckResult['status'] = 'fail',
): CheckResult => ({
  id,
  kind: 'observer',
  title: id,
  source: 'Errors',
  status,
  failure:
    on === undefined ? { message: `${id} broken` } : { message: `${id} broken`, exchange: on },
  requests: 0,
  durationMs: 0,
});

const passed = (id: string): CheckResult => {
  const { failure: _, ...rest } = broken(id);
  return { ...rest, status: 'pass' };
};

test('checks broken by one answer are one finding, led by the first in the run; another answer is another finding', () => {
  const html414 = exchange('/pets?x=1', 1.5);
  const bad500 = exchange('/pets', 2.5);
  const findings = findingsOf([
    broken('errors.largeRequests', html414),
    { ...passed('listPets.defaultLimit') },
    broken('server.no5xx', bad500),
    broken('errors.bodyShape', html414),
    // The same request sent again later is another answer.
    broken('responses.json', exchange('/pets?x=1', 9.5)),
    // A failure shown by no exchange (a model's sequence) is its own finding.
    broken('model.createListGet'),
  ]);
  expect(findings.map((finding) => rulesOf(finding).map((rule) => rule.id))).toEqual([
    ['errors.largeRequests', 'errors.bodyShape'],
    ['server.no5xx'],
    ['responses.json'],
    ['model.createListGet'],
  ]);
});

test('an advisory warning is a finding only with --strict', () => {
  const answer = exchange('/pets/1', 3);
  const results = [
    broken('getPet.deprecationHeader', answer, 'warn'),
    broken('getPet.sunsetDate', answer),
  ];
  expect(findingsOf(results).map((finding) => rulesOf(finding).length)).toEqual([1]);
  expect(findingsOf(results, true).map((finding) => rulesOf(finding).length)).toEqual([2]);
});
