import { getPetSunsetDay } from '../../contract/interface-facts.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf, notExercised } from './observed-answer.ts';

function sunsetProblem(value: string): string | undefined {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return `Sunset ${JSON.stringify(value)} is not an HTTP-date`;
  const { year, month, day } = getPetSunsetDay;
  if (at.getUTCFullYear() !== year || at.getUTCMonth() + 1 !== month || at.getUTCDate() !== day)
    return `Sunset ${value} is not 5 December 2030, the removal date the interface gives`;
  return undefined;
}

/** A Sunset header, when sent, names the removal date. */
export const getPetSunsetDate = observerCheck({
  id: 'getPet.sunsetDate',
  title: 'a Sunset header on GET /pets/{petId}, when sent, names 5 December 2030',
  source: 'GET /pets/{petId}, rule 1; Versioning, "removal on 5 December 2030"',
  appliesTo: answered(
    (response, exchange) =>
      exchange.spec.operationId === 'getPet' && response.headers.get('Sunset') !== null,
  ),
  judge: (exchange) => sunsetProblem(answerOf(exchange).headers.get('Sunset') ?? ''),
  whenUnseen: notExercised(
    'no Sunset header was sent (the interface requires none, so there is nothing to compare)',
  ),
});
