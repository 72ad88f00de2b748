import { observerCheck } from '../check.ts';
import { answered, answerOf, isJsonType, notExercised } from './observed-answer.ts';

/** Bodies are JSON, labelled application/json. */
export const responsesJson = observerCheck({
  id: 'responses.json',
  title: 'every response body is JSON sent as application/json',
  source: 'What the service does, "Request and response bodies are JSON (application/json)"',
  appliesTo: answered((response) => response.text !== ''),
  judge(exchange) {
    const response = answerOf(exchange);
    const type = response.headers.get('Content-Type');
    if (!isJsonType(type))
      return `a ${response.status} answer with Content-Type ${JSON.stringify(type)}`;
    if (response.json === undefined && response.text !== 'null')
      return `a ${response.status} answer whose body is not JSON`;
    return undefined;
  },
  whenUnseen: notExercised('no answer had a body'),
});
