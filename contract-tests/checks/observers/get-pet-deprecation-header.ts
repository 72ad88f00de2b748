import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** Advisory: the deprecation is announced on the wire. */
export const getPetDeprecationHeader = observerCheck({
  id: 'getPet.deprecationHeader',
  title:
    'GET /pets/{petId} answers carry a Deprecation header (advisory: the interface names no header)',
  source: 'GET /pets/{petId} - DEPRECATED; Versioning',
  advisory: true,
  appliesTo: answered((_response, exchange) => exchange.spec.operationId === 'getPet'),
  judge(exchange) {
    const response = answerOf(exchange);
    return response.headers.get('Deprecation') === null
      ? `a ${response.status} answer without Deprecation`
      : undefined;
  },
  whenUnseen: notExercised('no GET /pets/{petId} answer was seen'),
});
