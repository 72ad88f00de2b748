import { answerViolations, roundedByPrism } from '../../http/prism-violations.ts';
import { observerCheck } from '../check.ts';
import { answered, answerOf } from './observed-answer.ts';

/** What Prism's validator said of an answer it carried, less its own int64 limitation. */
function prismFindings(headers: Headers): string[] {
  const violations = answerViolations(headers);
  if (violations === undefined)
    return [
      `unreadable sl-violations header: ${(headers.get('sl-violations') ?? '').slice(0, 200)}`,
    ];
  return violations
    .filter((item) => item.severity === 'Error' && !roundedByPrism(item))
    .map((item) => `${(item.location ?? []).join('.')}: ${item.message ?? '?'}`);
}

/** Prism found nothing to object to. */
export const prismExchangesValid = observerCheck({
  id: 'prism.exchangesValid',
  title: "Prism's validator accepts every answer that passed through it",
  source: 'openapi/petstore.yaml (validated by prism proxy)',
  needs: ['prism'],
  appliesTo: answered(),
  judge(exchange) {
    const findings = prismFindings(answerOf(exchange).headers);
    return findings.length === 0 ? undefined : `Prism: ${findings.join('; ')}`;
  },
});
