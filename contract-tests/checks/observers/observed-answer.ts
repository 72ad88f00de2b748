/** What the observers share: whether and how an exchange was answered, and "not exercised". */
import type { Exchange, ReceivedResponse } from '../../http/exchange.ts';
import type { RunFacts, WhenUnseen } from '../check.ts';

/** Whether an exchange got an answer from the target, optionally one that `also` accepts. */
export function answered(
  also: (response: ReceivedResponse, exchange: Exchange) => boolean = () => true,
): (exchange: Exchange) => boolean {
  return (exchange) => {
    const response = exchange.response;
    return response !== undefined && also(response, exchange);
  };
}

/** The target's answer of an exchange an observer's `appliesTo` accepted. */
export function answerOf(exchange: Exchange): ReceivedResponse {
  const response = exchange.response;
  if (response === undefined) throw new Error('petstore-contract: judged an unanswered exchange');
  return response;
}

/** Nothing seen, and nothing in the run's flags promised there would be. */
export const notExercised =
  (reason: string): ((run: RunFacts) => WhenUnseen) =>
  () => ({ reason });

export const isJsonType = (value: string | null) =>
  value !== null && /^application\/json\s*(;|$)/i.test(value);
