import { checkError } from '../../contract/schemas.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** Every error response has a JSON Error body. */
export const errorsBodyShape = observerCheck({
  id: 'errors.bodyShape',
  title: 'every error response has a JSON body shaped as Error {code, message, status}',
  source: 'Errors, "Every error response has a JSON body shaped as Error"',
  appliesTo: answered((response) => response.status >= 400),
  judge(exchange) {
    const response = answerOf(exchange);
    if (response.json === undefined) return `a ${response.status} answer whose body is not JSON`;
    return checkError(response.json);
  },
  whenUnseen: notExercised('no error response was seen'),
});
