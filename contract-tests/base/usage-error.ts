/** Misuse of the harness (bad flag, missing key, unreachable server): exit code 2. */
import { UsageError } from '../../mock/internal/entry.ts';

/** The tool's name, which starts every message it prints. */
export const toolName = 'petstore-contract';

/** A usage or connection problem; its message says how to fix it. */
export class ContractUsageError extends UsageError {
  constructor(message: string) {
    super(`${toolName}: ${message}`);
    this.name = 'ContractUsageError';
  }
}

/**
 * A usage error as the harness prints it, its name first: the shared flag parsers
 * (mock/doors/cli-shared/command-line.ts) throw UsageError without it.
 */
export function contractMessage(error: UsageError): string {
  return error instanceof ContractUsageError ? error.message : `${toolName}: ${error.message}`;
}
