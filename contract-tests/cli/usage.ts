import { flagHelp } from '../../mock/internal/entry.ts';
import { cliFlags, helpColumn, optionFlags, targetFlags } from './options.ts';

/**
 * The CLI's help text, naming the command as the user invoked it and where its docs are.
 * @example usage('petstore-contract', 'node_modules/petstore-fake/contract-tests/README.md')
 */
export function usage(command: string, docs: string): string {
  return `Usage: ${command} (--base-url <url> | --fake | --prism-mock) [options]
       ${command} proxy --target <url> [options] [-- <command>]   (see proxy --help)
       ${command} calibrate --base-url <url> [options]   (see calibrate --help)
       ${command} verify-pact <pact-file> --base-url <url> [options]   (see verify-pact --help)

Checks a server against the Pet Store interface (docs: ${docs}).
The API key is read from the PETSTORE_API_KEY environment variable only; it is
never printed, in any encoding.

Target (one of):
${flagHelp(cliFlags, helpColumn, targetFlags)}

Options:
${flagHelp(cliFlags, helpColumn, optionFlags)}

Exit codes: 0 the server conforms (every selected, applicable check ran and passed),
1 a rule is broken, 2 no verdict: usage or connection error, or a selected check
could not run (budget, missing data, the key's rate limit). Colour only on a
terminal; NO_COLOR turns it off.`;
}
