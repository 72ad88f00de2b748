/**
 * The command a CLI of the package names in its usage, help and replay lines: the way the user
 * invoked it, so a printed command works where it is printed. Installed from the package, the
 * script is the bin (`petstore-contract`, `petstore-fake`, also through npx or an npm script);
 * in this repository it is a source file or the bundle `npm start` builds, run by an npm script.
 */
import { basename } from 'node:path';

/**
 * `bin` when the running script is that bin, else `inRepository` (the npm script form).
 * @example invokedAs(process.argv[1], 'petstore-contract', 'npm run contract --')
 */
export function invokedAs(script: string | undefined, bin: string, inRepository: string): string {
  return basename(script ?? '').replace(/\.(c|m)?js$/, '') === bin ? bin : inRepository;
}
