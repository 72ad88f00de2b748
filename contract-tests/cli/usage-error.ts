/** Misuse of the harness (bad flag, missing key, unreachable server): exit code 2. */

/** The tool's name, which starts every message it prints. */
export const toolName = 'petstore-contract';

/** A usage or connection problem; its message says how to fix it. */
export class ContractUsageError extends Error {
  constructor(message: string) {
    super(`${toolName}: ${message}`);
    this.name = 'ContractUsageError';
  }
}
