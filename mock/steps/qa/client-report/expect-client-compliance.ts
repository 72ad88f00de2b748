/**
 * The test helper: fails a user's test, with a message that says what the client did wrong, when
 * a client of the fake broke the interface's rule for clients (Limits, rule 2). Throws a plain
 * Error subclass, so it works under any test runner.
 */

import { assertSupportedRuntime } from '../../../base/runtime/supported-runtime.ts';
import type { ClientReport, ClientSummary, RuleVerdict } from './client-report.ts';
import { ruleLabels } from './client-rules.ts';

/** The rules a client is judged by, as the report names them. */
type RuleName = keyof ClientSummary['rules'];

/** Which clients to judge, and by which rules. */
export interface ClientComplianceOptions {
  /** Only this key's clients (by key id, e.g. `demo-free`). */
  readonly keyId?: string;
  /** Only this client (its `X-Client-Id`, else its `User-Agent`). */
  readonly clientId?: string;
  /** The rules to hold them to; default all four (`resentCreates` is the resent-create observation). */
  readonly rules?: readonly RuleName[];
  /**
   * Fail unless some judged rule passed, and fail on any `inconclusive` rule (it says why): a
   * test that meant to provoke a 429 and did not, or whose evidence is ambiguous, should not
   * pass silently. Default true.
   */
  readonly requireEvidence?: boolean;
}

/** The error `expectClientCompliance` throws; `clients` holds the report's entries it judged. */
export class ClientComplianceError extends Error {
  override readonly name = 'ClientComplianceError';
  /** The judged clients, as in the report. */
  readonly clients: readonly ClientSummary[];

  constructor(message: string, clients: readonly ClientSummary[]) {
    super(message);
    this.clients = clients;
  }
}

const allRules = Object.keys(ruleLabels) as RuleName[];

/**
 * Throws a ClientComplianceError naming every broken rule of every matching client; returns the
 * judged clients when all comply.
 * @example expectClientCompliance(fake, { keyId: 'demo-free', clientId: 'my-app' });
 */
export function expectClientCompliance(
  fake: { readonly control: { clients(): ClientReport } },
  options: ClientComplianceOptions = {},
): readonly ClientSummary[] {
  assertSupportedRuntime('expectClientCompliance');
  const { clients } = fake.control.clients();
  const rules = options.rules ?? allRules;
  const chosen = clients.filter(
    (c) =>
      (options.keyId === undefined || c.keyId === options.keyId) &&
      (options.clientId === undefined || c.clientId === options.clientId),
  );
  const who = [
    options.keyId === undefined ? undefined : `key ${options.keyId}`,
    options.clientId === undefined ? undefined : `client "${options.clientId}"`,
  ]
    .filter(Boolean)
    .join(', ');
  if (chosen.length === 0) {
    const seen = clients.map((c) => `${c.keyId}/${c.clientId}`).join(', ') || 'none';
    throw new ClientComplianceError(
      `petstore-fake: no client${who === '' ? '' : ` for ${who}`} has sent a request with a key (clients seen: ${seen})`,
      chosen,
    );
  }
  // One block per client with a rule of that verdict, naming each such rule and its reason.
  const listed = (verdict: RuleVerdict) =>
    chosen.flatMap((client) => {
      const found = rules.filter((rule) => client.rules[rule].verdict === verdict);
      if (found.length === 0) return [];
      const lines = found.map((rule) => `${ruleLabels[rule]}: ${client.rules[rule].reason}`);
      return [`client "${client.clientId}" on key ${client.keyId}:\n  - ${lines.join('\n  - ')}`];
    });
  const failures = listed('fail');
  const doubts = listed('inconclusive');
  if (failures.length > 0)
    throw new ClientComplianceError(
      `petstore-fake: the client broke the interface's rule for retries (Limits, rule 2: retry after Retry-After, with exponential backoff) or resent a create it could not know had failed:\n${failures.join('\n')}`,
      chosen,
    );
  const requireEvidence = options.requireEvidence ?? true;
  if (requireEvidence && doubts.length > 0)
    throw new ClientComplianceError(
      `petstore-fake: the evidence does not settle the rule for retries (inconclusive is not a pass; requireEvidence: false accepts it):\n${doubts.join('\n')}`,
      chosen,
    );
  const evidence = chosen.some((c) => rules.some((rule) => c.rules[rule].verdict === 'pass'));
  if (requireEvidence && !evidence)
    throw new ClientComplianceError(
      `petstore-fake: nothing to judge${who === '' ? '' : ` for ${who}`}: no Retry-After was sent and no retries followed each other (provoke a 429 or a 5xx first, e.g. with fake.control.force or chaos)`,
      chosen,
    );
  return chosen;
}
