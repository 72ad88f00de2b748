import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

/** No 5xx. */
export const serverNo5xx = observerCheck({
  id: 'server.no5xx',
  title: 'no request gets a 5xx server error',
  source: 'Errors table (no 5xx is part of the interface)',
  appliesTo: answered(),
  judge(exchange) {
    const response = answerOf(exchange);
    return response.status >= 500
      ? `server error ${response.status}: ${response.preview()}`
      : undefined;
  },
  whenUnseen: notExercised('no answer was seen'),
});
