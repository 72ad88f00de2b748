/**
 * A bad option of the fake. It names the option and the problem separately, so a door that took
 * the value from somewhere else (the CLI's `--max-pets`, `PETSTORE_CONTROL_TOKEN`) can say so in
 * its own words without matching message text.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The option at fault as `createFake` spells it, e.g. `maxPets` or `controlAccess.token`. */
  readonly option: string;
  /** What is wrong and how to fix it, without the option's name, e.g. `must be a positive integer, got 0`. */
  readonly problem: string;

  constructor(option: string, problem: string) {
    super(`petstore-fake: ${option} ${problem}`);
    this.option = option;
    this.problem = problem;
  }
}
