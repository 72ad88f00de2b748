/** The CLI's last resort: a bug in the harness, reported without a word of the key. */

import { toolName } from '../base/usage-error.ts';
import { createEnvRedactor } from '../report/redact.ts';

/**
 * The message for an error nothing else caught, redacted for the key in `env` (a stack may
 * quote a server's answer, and the answer may quote the key).
 */
export function internalErrorMessage(error: unknown, env: NodeJS.ProcessEnv): string {
  const redact = createEnvRedactor(env);
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return redact(`${toolName}: internal error, please report it: ${detail}`);
}
