import { checkError } from '../../contract/schemas.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** Error.status equals the HTTP status. */
export const errorsStatusMatches = observerCheck({
  id: 'errors.statusMatches',
  title: "an Error body's status equals the response's HTTP status",
  source: 'Error.status, "The HTTP status code of the response"',
  needs: ['semantics'],
  appliesTo: answered(
    (response) => response.status >= 400 && checkError(response.json) === undefined,
  ),
  judge(exchange) {
    const response = answerOf(exchange);
    const status = (response.json as { status?: unknown }).status;
    return status === response.status
      ? undefined
      : `HTTP ${response.status} carries an Error with status ${JSON.stringify(status)}`;
  },
  whenUnseen: notExercised('no error response with an Error body was seen'),
});
